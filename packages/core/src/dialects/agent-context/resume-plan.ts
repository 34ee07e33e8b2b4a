import type { PhaseView, ResumePlan } from '../../view/run-view.js';
import type { AgentContextRunSummary, AgentContextTaskSummary } from './model.js';
import { iterationPhases, phaseKey } from './phases.js';

/** The phases of the run's current iteration, done / current / pending. */
export function phasesOf(r: AgentContextRunSummary): PhaseView[] {
  if (!r.phase || r.iteration === undefined) return [];
  const done = new Set(r.resume?.skip ?? []);
  const list = [...iterationPhases(r.iteration), 'finalize', 'completed'] as const;
  return list.map((p) => {
    const key = phaseKey(r.iteration!, p);
    const current = r.resume?.key === key && !r.resume.done;
    const status =
      done.has(key) || (p === 'completed' && r.phase === 'completed')
        ? 'done'
        : current
          ? 'current'
          : 'pending';
    return {
      id: key,
      status,
      tone: status === 'done' ? 'ok' : current ? 'active' : 'neutral',
      ...(current ? { current } : {}),
    };
  });
}

/** What resuming does: the phase to continue from, the completed phases it skips, and what needs a person. */
export function resumePlan(
  r: AgentContextRunSummary | undefined,
  t: AgentContextTaskSummary | undefined,
): ResumePlan {
  const notes: string[] = [];
  if (r && !r.supported)
    return {
      summary: `not resumable by this version: orchestrator schemaVersion ${JSON.stringify(r.schemaVersion ?? null)}`,
      skip: [],
      runNext: [],
      blocked: [],
      notes,
      needsPerson: [
        { id: r.runId, reason: 'unsupported orchestrator state schemaVersion (not interpreted)' },
      ],
    };
  const needsPerson = [
    ...(r?.resume?.problems ?? []).map((p) => ({
      id: r!.runId,
      reason: `inconsistent state: completedPhases ${p}`,
    })),
  ];
  if (r?.resume && !r.resume.done) {
    if (r.convergence?.shouldStop && r.phase !== 'finalize')
      notes.push(`the loop stops after this iteration: ${r.convergence.stopReason ?? r.convergence.status}`);
    return {
      summary: `resume run ${r.runId} at ${r.resume.key} (skips ${r.resume.skip.length} completed phases)`,
      skip: r.resume.skip.map((id) => ({ id, reason: 'completed' })),
      runNext: [{ id: r.resume.key, reason: `currentPhase ${r.phase} of iteration ${r.iteration}` }],
      blocked: [],
      needsPerson,
      notes,
    };
  }
  if (r?.resume?.done) {
    if (r.convergence && r.convergence.status !== 'terminal')
      needsPerson.push({
        id: r.runId,
        reason: `stopped by ${r.convergence.stopReason ?? r.convergence.status}`,
      });
    if (r.latestDecision?.action === 'human-review' || r.latestDecision?.action === 'block')
      needsPerson.push({ id: r.runId, reason: `latest decision: ${r.latestDecision.action}` });
  }
  const next = t?.nextAction;
  return {
    summary: r?.resume?.done
      ? `run ${r.runId} completed${next ? `; next task action: ${next.type}` : ''}`
      : next
        ? `next action: ${next.type}`
        : 'nothing to resume',
    skip: r?.resume?.skip.map((id) => ({ id, reason: 'completed' })) ?? [],
    runNext:
      next && next.type !== 'blocked' && next.type !== 'review'
        ? [{ id: next.type, reason: next.reason }]
        : [],
    blocked: next?.type === 'blocked' ? [{ id: t!.taskId, reason: next.reason }] : [],
    needsPerson: [
      ...needsPerson,
      ...(next?.type === 'review' ? [{ id: t!.taskId, reason: next.reason }] : []),
    ],
    notes: [
      ...notes,
      ...(t && t.missingEvidence.length > 0 ? [`missing evidence: ${t.missingEvidence.join(', ')}`] : []),
    ],
  };
}
