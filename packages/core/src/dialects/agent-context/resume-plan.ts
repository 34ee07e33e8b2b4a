import type { PhaseView, ResumePlan } from '../../view/run-view.js';
import { TERMINAL_ACTIONS } from './constants.js';
import type {
  AgentContextIterationSummary,
  AgentContextRunSummary,
  AgentContextTaskSummary,
} from './model.js';
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

/**
 * The iteration that ended a run without an orchestrator state (opencode-plusplus 0.1.1 and the single-file
 * orchestrator): its loop stops on a terminal decision, and the task state is the one written at the start of the
 * last loop. None when the latest iteration's decision is not terminal (a loop in progress) or the task state was
 * written after it (a later `loop --write` or a new run).
 */
export function loopEndedWithoutState(
  last: AgentContextIterationSummary | undefined,
  t: AgentContextTaskSummary | undefined,
): AgentContextIterationSummary | undefined {
  if (!t || !last?.decision || !TERMINAL_ACTIONS.includes(last.decision)) return undefined;
  if (t.updatedAt && last.generatedAt && t.updatedAt > last.generatedAt) return undefined;
  return last;
}

/**
 * What resuming does: the phase to continue from, the completed phases it skips, and what needs a person. `last` is
 * the latest iteration of a run that has no orchestrator state (see `latestIteration`).
 */
export function resumePlan(
  r: AgentContextRunSummary | undefined,
  t: AgentContextTaskSummary | undefined,
  last?: AgentContextIterationSummary,
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
  // One other than finalize is a blocking end (the original exits 1): a person decides what next.
  const ended = r ? undefined : loopEndedWithoutState(last, t);
  const stopped = ended?.decision !== 'finalize' ? ended : undefined;
  if (stopped && t)
    needsPerson.push({
      id: t.taskId,
      reason: `iteration ${stopped.iteration} decided ${stopped.decision}${stopped.reason ? `: ${stopped.reason}` : ''}`,
    });
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
