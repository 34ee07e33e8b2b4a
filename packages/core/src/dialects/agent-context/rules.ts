import type { Finding } from '../../findings/finding.js';
import type { CheckedDocument } from '../dialect.js';
import { RUNTIME_ACTIONS } from './constants.js';
import { dirNameAbove, findingIn, obj } from './doc-util.js';
import { convergenceFindings, isConvergenceStatus } from './fingerprint-rules.js';
import { orchestratorRules } from './orchestrator-rules.js';
import { unknownValueFindings } from './vocabulary-rules.js';

/** Per-document rules of the agent-context dialect. Pure: input is the checked document, output its findings. */
export function checkAgentContextDocument(doc: CheckedDocument): Finding[] {
  const v = obj(doc.value);
  if (!v || !doc.usable) return [];
  const own = documentRules(doc, v);
  // An orchestrator state of another schemaVersion is not interpreted at all.
  if (own.some((f) => f.code === 'agent-context/unsupported-schema-version')) return own;
  return [...own, ...unknownValueFindings(doc, v)];
}

function documentRules(doc: CheckedDocument, v: Record<string, unknown>): Finding[] {
  switch (doc.kind) {
    case 'agent-context/task-state':
      return taskStateRules(doc, v);
    case 'agent-context/orchestrator-state':
      return orchestratorRules(doc, v);
    case 'agent-context/iteration': {
      const s = obj(v.summary);
      const exit = s?.exitCode;
      const out = iterationIdentity(doc, v);
      const conv = obj(v.convergence);
      if (!conv) return out;
      out.push(
        ...convergenceFindings(doc, '/convergence', conv, {
          ...(typeof exit === 'number' || exit === null ? { executorExitCode: exit } : {}),
        }),
      );
      const value = obj(conv.fingerprint)?.value;
      if (s && typeof s.fingerprint === 'string' && typeof value === 'string' && s.fingerprint !== value)
        out.push(
          findingIn(
            doc,
            '/summary/fingerprint',
            'agent-context/fingerprint-mismatch',
            'summary.fingerprint differs from convergence.fingerprint.value',
          ),
        );
      if (
        s &&
        isConvergenceStatus(s.convergence) &&
        isConvergenceStatus(conv.status) &&
        s.convergence !== conv.status
      )
        out.push(
          findingIn(
            doc,
            '/summary/convergence',
            'agent-context/convergence-mismatch',
            `summary.convergence "${s.convergence}" differs from convergence.status "${conv.status}"`,
          ),
        );
      return out;
    }
    case 'agent-context/decision': {
      const out = iterationIdentity(doc, v);
      const conv = obj(v.convergence);
      const exit = obj(v.inputs)?.executorExitCode;
      const decision = obj(v.decision);
      if (conv)
        out.push(
          ...convergenceFindings(doc, '/convergence', conv, {
            ...(typeof exit === 'number' || exit === null ? { executorExitCode: exit } : {}),
            ...(decision ? { decision: { action: decision.action, blocking: decision.blocking } } : {}),
          }),
        );
      return out;
    }
    default:
      return [];
  }
}

function taskStateRules(doc: CheckedDocument, v: Record<string, unknown>): Finding[] {
  const out: Finding[] = [];
  const dir = dirNameAbove(doc.path, 1);
  if (typeof v.taskId === 'string' && v.taskId !== dir)
    out.push(
      findingIn(
        doc,
        '/taskId',
        'agent-context/task-id-mismatch',
        `taskId "${v.taskId}" does not match its directory "${dir}"`,
      ),
    );
  const actions = RUNTIME_ACTIONS as readonly string[];
  const unknown = (a: unknown, pointer: string, what: string) => {
    if (typeof a !== 'string' || actions.includes(a)) return;
    const near = actions.find((x) => x === a.toLowerCase().replace(/-/g, '_'));
    out.push(
      findingIn(
        doc,
        pointer,
        'agent-context/unknown-action',
        `${what} "${a}" is not a runtime action${near ? ` (did you mean "${near}"?)` : ` (one of ${actions.join(', ')})`}`,
      ),
    );
  };
  // allowedActions only describes the state (agent-context/unknown-value); nextAction.type is what a resume runs.
  unknown(obj(v.nextAction)?.type, '/nextAction/type', 'nextAction.type');
  return out;
}

/** runId and iteration number of an iteration record against `runs/<run-id>/iterations/<NNN>/`. */
function iterationIdentity(doc: CheckedDocument, v: Record<string, unknown>): Finding[] {
  const out: Finding[] = [];
  const run = dirNameAbove(doc.path, 3);
  const nnn = dirNameAbove(doc.path, 1);
  if (typeof v.runId === 'string' && v.runId !== run)
    out.push(
      findingIn(
        doc,
        '/runId',
        'agent-context/run-id-mismatch',
        `runId "${v.runId}" does not match its run directory "${run}"`,
      ),
    );
  if (typeof v.iteration === 'number' && /^[0-9]+$/.test(nnn) && Number(nnn) !== v.iteration)
    out.push(
      findingIn(
        doc,
        '/iteration',
        'agent-context/run-id-mismatch',
        `iteration ${v.iteration} does not match its directory "${nnn}"`,
      ),
    );
  return out;
}

/** Codes whose finding explains a problem better than ajv's raw error at the same place. */
const SUPERSEDING = new Set([
  'agent-context/unknown-action',
  'agent-context/phase-case',
  'agent-context/bad-phase-key',
]);

/**
 * Drops the raw schema findings this dialect's rules replace: every schema finding of an orchestrator state whose
 * schemaVersion is unsupported (it is not interpreted, so v1 schema errors would be noise; ajv alone reports a
 * numeric version twice, as type and const), and the schema finding at the pointer of an unknown action, a phase
 * in another case, or a malformed phase key.
 */
export function filterAgentContextSchemaFindings(
  schemaFindings: readonly Finding[],
  semantic: readonly Finding[],
): Finding[] {
  if (semantic.some((f) => f.code === 'agent-context/unsupported-schema-version')) return [];
  const replaced = new Set(semantic.filter((f) => SUPERSEDING.has(f.code)).map((f) => f.pointer));
  return schemaFindings.filter((f) => !replaced.has(f.pointer));
}
