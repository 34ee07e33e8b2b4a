import type { Finding } from '../../findings/finding.js';
import type { CheckedDocument } from '../dialect.js';
import { isOrchestratorPhase, ORCHESTRATOR_STATE_V1 } from './constants.js';
import { dirNameAbove, findingIn, obj, strings } from './doc-util.js';
import { convergenceFindings } from './fingerprint-rules.js';
import { parsePhaseKey, phaseStateProblems, requiredReferences } from './phases.js';

/**
 * Rules of one orchestrator state: the exact v1 schemaVersion (else nothing else is interpreted), runId against
 * its directory, phase spelling, completed keys against currentPhase, references the phase needs, revision
 * against its keys, and its latest convergence.
 */
export function orchestratorRules(doc: CheckedDocument, v: Record<string, unknown>): Finding[] {
  const runId = typeof v.runId === 'string' ? v.runId : dirNameAbove(doc.path, 1);
  if (v.schemaVersion !== ORCHESTRATOR_STATE_V1) {
    const got =
      v.schemaVersion === undefined ? 'no schemaVersion' : `schemaVersion ${JSON.stringify(v.schemaVersion)}`;
    return [
      findingIn(
        doc,
        v.schemaVersion === undefined ? '' : '/schemaVersion',
        'agent-context/unsupported-schema-version',
        `unsupported orchestrator state: ${got} for run ${runId}; expected "${ORCHESTRATOR_STATE_V1}" (not interpreted)`,
        'upgrade ckpt, or resume this run with the OpenCode++ release that wrote it',
      ),
    ];
  }
  const out: Finding[] = [];
  const dir = dirNameAbove(doc.path, 1);
  if (typeof v.runId === 'string' && v.runId !== dir)
    out.push(
      findingIn(
        doc,
        '/runId',
        'agent-context/run-id-mismatch',
        `runId "${v.runId}" does not match its directory "${dir}"`,
      ),
    );
  let phase = v.currentPhase;
  if (typeof phase === 'string' && !isOrchestratorPhase(phase) && isOrchestratorPhase(phase.toLowerCase())) {
    out.push(
      findingIn(
        doc,
        '/currentPhase',
        'agent-context/phase-case',
        `currentPhase "${phase}" is written in another case; phases are lowercase ("${phase.toLowerCase()}")`,
      ),
    );
    phase = phase.toLowerCase();
  }
  const keys = strings(v.completedPhases);
  let validKeys = 0;
  if (Array.isArray(v.completedPhases))
    v.completedPhases.forEach((raw, i) => {
      if (typeof raw !== 'string') return;
      const k = parsePhaseKey(raw);
      const at = `/completedPhases/${i}`;
      if (!k)
        out.push(
          findingIn(
            doc,
            at,
            'agent-context/bad-phase-key',
            `completed phase key "${raw}" is not <NNN>:<phase> with a known phase`,
          ),
        );
      else if (k.problem === 'case')
        out.push(
          findingIn(
            doc,
            at,
            'agent-context/phase-case',
            `completed phase key "${raw}" is written in another case; expected "${k.key}"`,
          ),
        );
      else if (k.problem === 'not-padded')
        out.push(
          findingIn(
            doc,
            at,
            'agent-context/bad-phase-key',
            `completed phase key "${raw}" is not zero-padded to 3 digits; expected "${k.key}"`,
          ),
        );
      if (k) validKeys++;
    });
  const iteration = v.currentIteration;
  if (isOrchestratorPhase(phase) && Number.isInteger(iteration) && (iteration as number) >= 1 && keys) {
    const problems = phaseStateProblems({
      currentPhase: phase,
      currentIteration: iteration as number,
      completedPhases: keys,
    });
    if (problems.length > 0)
      out.push(
        findingIn(
          doc,
          '/currentPhase',
          'agent-context/inconsistent-phase-state',
          `currentPhase "${phase}" in iteration ${iteration}, but completedPhases ${problems.join(' and ')}`,
          'a resume must not trust this state; inspect the iteration artifacts before continuing',
        ),
      );
    for (const field of requiredReferences(phase, iteration as number))
      if (v[field] === undefined)
        out.push(
          findingIn(
            doc,
            '/currentPhase',
            'agent-context/missing-phase-reference',
            `currentPhase "${phase}" in iteration ${iteration} needs ${field}, which the state lacks`,
          ),
        );
  }
  if (typeof v.revision === 'number' && keys && v.revision < validKeys)
    out.push(
      findingIn(
        doc,
        '/revision',
        'agent-context/revision-behind',
        `revision ${v.revision} is behind the ${validKeys} completed phases it records (every transition is a save)`,
      ),
    );
  const conv = obj(v.convergence);
  const decision = obj(v.latestDecision);
  if (conv)
    out.push(
      ...convergenceFindings(doc, '/convergence', conv, {
        ...(decision ? { decision: { action: decision.action, blocking: decision.blocking } } : {}),
      }),
    );
  return out;
}
