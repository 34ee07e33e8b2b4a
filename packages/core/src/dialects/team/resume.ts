import { shellCommand } from '../../text/shell-quote.js';
import { gateApprovedFor, type TeamRunModel, type TeamTask } from './model.js';

/** One task in the resume plan. */
export interface TeamResumeTask {
  readonly task: string;
  readonly attempt: number;
  readonly stage: string;
  readonly reason: string;
}

/** What resuming a team run means, in the seed's terms. */
export interface TeamResumePlan {
  /** Completed (and approved awaiting_approval) tasks: do not rerun. */
  readonly completed: readonly TeamResumeTask[];
  /** Attempts without a terminal event: uncertain, reconcile first. */
  readonly running: readonly TeamResumeTask[];
  /** Failed or interrupted latest attempts: retry explicitly. */
  readonly retry: readonly TeamResumeTask[];
  /** Attempts with two or more terminal events: a person decides. */
  readonly conflicts: readonly TeamResumeTask[];
  /** Stages whose gate waits for a matching approval. */
  readonly awaitingApproval: readonly {
    readonly stage: string;
    readonly tasks: readonly string[];
    readonly reason: string;
  }[];
}

/** The seed's guidance for an uncertain (running) attempt. */
export const UNCERTAIN_GUIDANCE =
  'inspect its artifacts and evidence, reconcile it, and ask the user before finishing or retrying it; do not mark it completed and do not repeat side effects';

/** Plan items by task identity and reason: an unchanged task keeps its item (and the views made from it). */
const items = new WeakMap<TeamTask, TeamResumeTask>();

const madeItem = (t: TeamTask, reason: string): TeamResumeTask => ({
  task: t.id,
  attempt: t.latest.attempt,
  stage: t.stage,
  reason,
});

function keptItem(t: TeamTask, reason: string): TeamResumeTask {
  const known = items.get(t);
  if (known?.reason === reason) return known;
  const made = madeItem(t, reason);
  items.set(t, made);
  return made;
}

/**
 * The resume plan of one run. Pure. `keep`: its items are kept by task, for a next load that gives the same tasks
 * (the project index; false: a one-shot load).
 */
export function teamResumePlan(model: TeamRunModel, keep = true): TeamResumePlan {
  const item = keep ? keptItem : madeItem;
  const completed: TeamResumeTask[] = [];
  const running: TeamResumeTask[] = [];
  const retry: TeamResumeTask[] = [];
  const conflicts: TeamResumeTask[] = [];
  const waiting = new Map<string, string[]>();
  const artifactsOf = new Map<string, Set<string>>();
  for (const t of model.tasks) {
    const s = t.latest.status;
    if (s === 'completed') completed.push(item(t, 'completed: do not rerun'));
    else if (s === 'running (uncertain)') running.push(item(t, `running, uncertain: ${UNCERTAIN_GUIDANCE}`));
    else if (s === 'failed' || s === 'interrupted')
      retry.push(
        item(t, `${s}: retry explicitly (ckpt team retry --run ${model.id} --task ${t.id} --reason "...")`),
      );
    else if (s === 'conflict')
      conflicts.push(
        item(
          t,
          `conflict: ${t.latest.terminals.map((e) => `${e.status} (${e.name})`).join(' vs ')}; decide which is true, never pick one automatically`,
        ),
      );
    else if (gateApprovedFor(t, model.gates))
      completed.push(item(t, 'awaiting_approval, and approved with a matching hash: do not rerun'));
    else {
      const ids = waiting.get(t.stage);
      if (ids) ids.push(t.id);
      else waiting.set(t.stage, [t.id]);
      const seen = artifactsOf.get(t.stage) ?? new Set<string>();
      for (const a of t.latest.terminals[0]?.artifacts ?? []) seen.add(a);
      artifactsOf.set(t.stage, seen);
    }
  }
  const awaitingApproval = [...waiting].map(([stage, tasks]) => ({
    stage,
    tasks,
    reason: approvalReason(model.id, stage, [...(artifactsOf.get(stage) ?? [])]),
  }));
  return { completed, running, retry, conflicts, awaitingApproval };
}

/**
 * What to do for a gate that waits: review, then the approve command for each artifact the waiting tasks named,
 * ready to paste (every argument quoted for POSIX sh; the approver is the shell's `$USER`). Without a named artifact
 * the command cannot be complete, so it is described, not offered.
 */
function approvalReason(run: string, stage: string, artifacts: readonly string[]): string {
  if (artifacts.length === 0)
    return 'review the artifact, then record the approval with ckpt team approve (--run, --stage, --artifact, --by); an existing artifact is not an approval';
  const commands = artifacts.map(
    (a) =>
      `(${shellCommand(['ckpt', 'team', 'approve', '--run', run, '--stage', stage, '--artifact', a])} --by "$USER")`,
  );
  return `review the artifact, then record the approval ${commands.join(' ')}; an existing artifact is not an approval`;
}
