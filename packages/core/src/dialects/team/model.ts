import type { CheckedDocument } from '../dialect.js';
import type { TeamRunFiles } from './load.js';
import {
  approvalRecord,
  eventRecord,
  fitForState,
  isTerminalStatus,
  type TeamApprovalRecord,
  type TeamEventRecord,
} from './records.js';

/** The derived status of one attempt. */
export type TeamAttemptStatus =
  | 'running (uncertain)'
  | 'completed'
  | 'failed'
  | 'interrupted'
  | 'awaiting_approval'
  | 'conflict';

export interface TeamAttempt {
  readonly attempt: number;
  readonly status: TeamAttemptStatus;
  /** `task_started` events (normally one), oldest first. */
  readonly started: readonly TeamEventRecord[];
  /** Terminal events, by file name; two or more is a conflict. */
  readonly terminals: readonly TeamEventRecord[];
}

export interface TeamTask {
  readonly id: string;
  readonly stage: string;
  readonly agent: string;
  /** Attempts in number order. */
  readonly attempts: readonly TeamAttempt[];
  readonly latest: TeamAttempt;
}

export type TeamApprovalState = 'valid' | 'stale: artifact changed' | 'stale: artifact missing';

export interface TeamApproval extends TeamApprovalRecord {
  readonly state: TeamApprovalState;
  /** False when a newer approval of the same stage and artifact exists. */
  readonly latestForArtifact: boolean;
}

export interface TeamGate {
  readonly stage: string;
  /** True while at least one approval of the stage matches its artifact's bytes now. */
  readonly approved: boolean;
  readonly approvals: readonly TeamApproval[];
}

/** One run, derived from its documents: what status, resume and the view show. */
export interface TeamRunModel {
  readonly id: string;
  readonly dir: string;
  readonly run: Readonly<Record<string, unknown>> | undefined;
  readonly runDoc: CheckedDocument | undefined;
  readonly tasks: readonly TeamTask[];
  readonly approvals: readonly TeamApproval[];
  readonly gates: readonly TeamGate[];
  /** Display paths of documents ignored for state because they are malformed. */
  readonly ignored: readonly string[];
}

const byTimeThenName = (a: TeamEventRecord, b: TeamEventRecord) =>
  a.at !== b.at ? (a.at < b.at ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

function attemptStatus(terminals: readonly TeamEventRecord[]): TeamAttemptStatus {
  if (terminals.length >= 2) return 'conflict';
  if (terminals.length === 1) return terminals[0]!.status as TeamAttemptStatus;
  return 'running (uncertain)';
}

/** Groups events into tasks and attempts. Pure. */
export function tasksOf(events: readonly TeamEventRecord[]): TeamTask[] {
  const byTask = new Map<string, Map<number, { started: TeamEventRecord[]; terminals: TeamEventRecord[] }>>();
  for (const e of [...events].sort(byTimeThenName)) {
    const attempts = byTask.get(e.taskId) ?? new Map();
    byTask.set(e.taskId, attempts);
    const a = attempts.get(e.attempt) ?? { started: [], terminals: [] };
    attempts.set(e.attempt, a);
    if (e.event === 'task_started') a.started.push(e);
    else if (isTerminalStatus(e.status)) a.terminals.push(e);
  }
  const tasks: TeamTask[] = [];
  for (const [id, attempts] of byTask) {
    const list = [...attempts.entries()]
      .sort((x, y) => x[0] - y[0])
      .map(([n, a]) => {
        const terminals = [...a.terminals].sort((x, y) => (x.name < y.name ? -1 : 1));
        return { attempt: n, status: attemptStatus(terminals), started: a.started, terminals };
      });
    const first = list[0]!.started[0] ?? list[0]!.terminals[0]!;
    tasks.push({
      id,
      stage: first.stage,
      agent: first.agent,
      attempts: list,
      latest: list[list.length - 1]!,
    });
  }
  return tasks.sort((a, b) => {
    const ta = a.attempts[0]!.started[0]?.at ?? a.attempts[0]!.terminals[0]?.at ?? '';
    const tb = b.attempts[0]!.started[0]?.at ?? b.attempts[0]!.terminals[0]?.at ?? '';
    return ta !== tb ? (ta < tb ? -1 : 1) : a.id < b.id ? -1 : 1;
  });
}

/** Judges approvals against the artifacts' bytes now. `hashOf` returns undefined for a missing artifact. Pure. */
export function judgeApprovals(
  records: readonly TeamApprovalRecord[],
  hashOf: (artifact: string) => string | undefined,
): { approvals: TeamApproval[]; gates: TeamGate[] } {
  const sorted = [...records].sort((a, b) =>
    a.approvedAt !== b.approvedAt ? (a.approvedAt < b.approvedAt ? -1 : 1) : a.name < b.name ? -1 : 1,
  );
  const lastIndex = new Map<string, number>();
  sorted.forEach((r, i) => lastIndex.set(`${r.stage}\0${r.artifact}`, i));
  const approvals = sorted.map((r, i): TeamApproval => {
    const now = hashOf(r.artifact);
    const state: TeamApprovalState =
      now === undefined ? 'stale: artifact missing' : now === r.sha256 ? 'valid' : 'stale: artifact changed';
    return { ...r, state, latestForArtifact: lastIndex.get(`${r.stage}\0${r.artifact}`) === i };
  });
  const stages = [...new Set(approvals.map((a) => a.stage))];
  const gates = stages.map((stage) => {
    const list = approvals.filter((a) => a.stage === stage);
    return { stage, approved: list.some((a) => a.state === 'valid'), approvals: list };
  });
  return { approvals, gates };
}

/** True when a task's awaiting_approval outcome has a valid approval of its stage (for one of its artifacts). */
export function gateApprovedFor(task: TeamTask, gates: readonly TeamGate[]): boolean {
  const gate = gates.find((g) => g.stage === task.stage);
  if (!gate) return false;
  const artifacts = task.latest.terminals[0]?.artifacts ?? [];
  const valid = gate.approvals.filter((a) => a.state === 'valid');
  return artifacts.length === 0 ? valid.length > 0 : valid.some((a) => artifacts.includes(a.artifact));
}

/** Builds the model of one run from its files. */
export function teamRunModel(
  files: TeamRunFiles,
  hashOf: (artifact: string) => string | undefined,
): TeamRunModel {
  const events = files.events.map(eventRecord).filter((e) => e !== undefined);
  const records = files.approvals.map(approvalRecord).filter((a) => a !== undefined);
  const { approvals, gates } = judgeApprovals(records, hashOf);
  const runOk = files.run !== undefined && fitForState(files.run, 'team/run');
  const ignored = [
    ...(files.run && !runOk ? [files.run.file] : []),
    ...files.events.filter((d) => !eventRecord(d)).map((d) => d.file),
    ...files.approvals.filter((d) => !approvalRecord(d)).map((d) => d.file),
  ];
  return {
    id: files.id,
    dir: files.dir,
    run: runOk ? (files.run!.value as Record<string, unknown>) : undefined,
    runDoc: files.run,
    tasks: tasksOf(events),
    approvals,
    gates,
    ignored,
  };
}
