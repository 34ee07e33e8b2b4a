import type { CheckedDocument } from '../dialect.js';
import type { TeamRunFiles } from './load.js';
import {
  approvalRecord,
  eventRecord,
  fitForState,
  isTerminalStatus,
  readApprovalRecord,
  readEventRecord,
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

/** Whether `list` is in `cmp`'s order already (sorting it would give the same order). */
function inOrder<T>(list: readonly T[], cmp: (a: T, b: T) => number): boolean {
  for (let i = 1; i < list.length; i++) if (cmp(list[i - 1]!, list[i]!) > 0) return false;
  return true;
}

const byAttempt = (x: { attempt: number }, y: { attempt: number }) => x.attempt - y.attempt;
const byNameOnly = (x: TeamEventRecord, y: TeamEventRecord) => (x.name < y.name ? -1 : 1);

/** An attempt while its events are gathered: its status is set once they all are. */
interface Gathered {
  readonly attempt: number;
  status: TeamAttemptStatus;
  started: readonly TeamEventRecord[];
  terminals: readonly TeamEventRecord[];
}

/** The events of an attempt that has none of a kind (shared, never written). */
const NO_EVENTS: readonly TeamEventRecord[] = Object.freeze([]);

/**
 * `list` and `e`: an attempt's lists are made the size they hold (nearly always one event). An array grown by
 * `push` from `[]` takes room for 17 (~150 bytes): 100k events' lists held that way are ~13 MB of the viewer's index.
 */
const withEvent = (list: readonly TeamEventRecord[], e: TeamEventRecord): readonly TeamEventRecord[] =>
  list.length === 0 ? [e] : list.concat(e);

/**
 * One task from its events (any order): its attempts in number order. Pure. Events usually come in time order
 * (file names begin with the time) and attempts in number order: then nothing is copied or sorted. Each attempt is
 * made once, as its events are gathered, and its status set at the end.
 */
function taskOf(id: string, events: readonly TeamEventRecord[]): TeamTask {
  const sorted = inOrder(events, byTimeThenName) ? events : [...events].sort(byTimeThenName);
  // A task has a few attempts: found by a walk of the list, or by a map once it is long.
  const gathered: Gathered[] = [];
  let index: Map<number, Gathered> | undefined;
  let last: Gathered | undefined;
  for (const e of sorted) {
    let a = last !== undefined && last.attempt === e.attempt ? last : undefined;
    if (!a) {
      if (index) a = index.get(e.attempt);
      else for (const g of gathered) if (g.attempt === e.attempt) a = g;
      if (!a) {
        a = { attempt: e.attempt, status: 'running (uncertain)', started: NO_EVENTS, terminals: NO_EVENTS };
        gathered.push(a);
        if (index) index.set(a.attempt, a);
        else if (gathered.length > 16) index = new Map(gathered.map((g) => [g.attempt, g]));
      }
    }
    last = a;
    if (e.event === 'task_started') a.started = withEvent(a.started, e);
    else if (isTerminalStatus(e.status)) a.terminals = withEvent(a.terminals, e);
  }
  const list: TeamAttempt[] = inOrder(gathered, byAttempt) ? gathered : gathered.sort(byAttempt);
  for (const a of list as Gathered[]) {
    if (a.terminals.length > 1) (a.terminals as TeamEventRecord[]).sort(byNameOnly);
    a.status = attemptStatus(a.terminals);
  }
  const first = list[0]!.started[0] ?? list[0]!.terminals[0]!;
  return { id, stage: first.stage, agent: first.agent, attempts: list, latest: list[list.length - 1]! };
}

/**
 * Tasks by their first event (in the order given): the events they were derived from. A task whose events are
 * the same records as at the last derivation is that task again (the same object), so views and findings derived
 * from it can be kept by identity; only a task whose events changed is derived again.
 */
const derivedTasks = new WeakMap<TeamEventRecord, { events: readonly TeamEventRecord[]; task: TeamTask }>();

const same = (a: readonly unknown[], b: readonly unknown[]) => {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/** When a task began: its first attempt's first start, else its first terminal event. */
const firstAt = (t: TeamTask) => t.attempts[0]!.started[0]?.at ?? t.attempts[0]!.terminals[0]?.at ?? '';

/**
 * Events by task id, each list in the order given. A task's events usually come one after another (listed by time,
 * a task's attempts follow each other): those go on the list of the event before without a lookup.
 */
function groupByTask(events: readonly TeamEventRecord[]): Map<string, TeamEventRecord[]> {
  const byTask = new Map<string, TeamEventRecord[]>();
  let lastId: string | undefined;
  let last: TeamEventRecord[] | undefined;
  for (const e of events) {
    if (e.taskId === lastId) {
      last!.push(e);
      continue;
    }
    lastId = e.taskId;
    last = byTask.get(lastId);
    if (last) last.push(e);
    else {
      last = [e];
      byTask.set(lastId, last);
    }
  }
  return byTask;
}

/** Tasks by when they began, then by id. */
const byBegin = (atA: string, a: TeamTask, atB: string, b: TeamTask) =>
  atA !== atB ? (atA < atB ? -1 : 1) : a.id < b.id ? -1 : 1;

/** The tasks of grouped events, by when they began, then by id; `keep`: see `tasksOf`. */
function tasksOfGroups(byTask: ReadonlyMap<string, readonly TeamEventRecord[]>, keep: boolean): TeamTask[] {
  const tasks: TeamTask[] = [];
  const ats: string[] = [];
  // Tasks usually come in the order they began (events are listed by time): then they are not sorted.
  let ordered = true;
  for (const [id, list] of byTask) {
    const known = keep ? derivedTasks.get(list[0]!) : undefined;
    let task: TeamTask;
    if (known && same(known.events, list)) task = known.task;
    else {
      task = taskOf(id, list);
      if (keep) derivedTasks.set(list[0]!, { events: list, task });
    }
    const at = firstAt(task);
    const n = tasks.length;
    if (ordered && n > 0 && byBegin(ats[n - 1]!, tasks[n - 1]!, at, task) > 0) ordered = false;
    tasks.push(task);
    ats.push(at);
  }
  if (ordered) return tasks;
  const keyed = tasks.map((task, i) => ({ at: ats[i]!, task }));
  keyed.sort((a, b) => byBegin(a.at, a.task, b.at, b.task));
  return keyed.map((k) => k.task);
}

/**
 * Groups events into tasks and attempts, tasks by when they began, then by id. With `keep`, tasks are kept for the
 * next call by their events (for a caller that keeps documents between loads: the project index).
 */
export function tasksOf(events: readonly TeamEventRecord[], keep = false): TeamTask[] {
  return tasksOfGroups(groupByTask(events), keep);
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

/** A model kept for the next derivation, with what it was built from. */
interface DerivedModel {
  readonly files: TeamRunFiles;
  readonly model: TeamRunModel;
  /** The fit events by task id, in the order of `files.events`. */
  readonly byTask: ReadonlyMap<string, readonly TeamEventRecord[]>;
  /** Display paths of the events ignored for state, in the order of `files.events`. */
  readonly ignoredEvents: readonly string[];
}

/**
 * Models by the run's first document (run.json, else its first event or approval). A run whose documents are the
 * same objects as last time, and whose approvals judge the same now, is that model again, so the views derived
 * from it are kept (a project index derives one run again, not its siblings); a run whose events differ in a few
 * documents is patched: only the tasks of those events are grouped and derived again.
 */
const derivedModels = new WeakMap<CheckedDocument, DerivedModel>();

/** At most this many events added, removed or replaced: the model is patched, not grouped again. */
const PATCH_LIMIT = 64;

const sameJudgement = (a: readonly TeamApproval[], b: readonly TeamApproval[]) =>
  a.length === b.length &&
  a.every(
    (x, i) =>
      x.doc === b[i]!.doc && x.state === b[i]!.state && x.latestForArtifact === b[i]!.latestForArtifact,
  );

/** The documents of `after` that differ from `before`'s, and `before`'s that they replace (by identity). */
function changedDocs(
  before: readonly CheckedDocument[],
  after: readonly CheckedDocument[],
): { gone: readonly CheckedDocument[]; came: readonly CheckedDocument[] } {
  const n = Math.min(before.length, after.length);
  let i = 0;
  while (i < n && before[i] === after[i]) i++;
  let j = 0;
  while (j < n - i && before[before.length - 1 - j] === after[after.length - 1 - j]) j++;
  return { gone: before.slice(i, before.length - j), came: after.slice(i, after.length - j) };
}

const byName = (a: TeamEventRecord, b: TeamEventRecord) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The grouped events and ignored paths of `files` from those of a model of the same run whose events differ in
 * a few documents (`gone` replaced by `came`); undefined when they differ in too many.
 */
function patchEvents(
  known: DerivedModel,
  files: TeamRunFiles,
): { byTask: Map<string, readonly TeamEventRecord[]>; ignoredEvents: readonly string[] } | undefined {
  const { gone, came } = changedDocs(known.files.events, files.events);
  if (gone.length + came.length > PATCH_LIMIT) return undefined;
  const goneDocs = new Set(gone);
  const touched = new Set<string>();
  const goneIgnored = new Set<string>();
  for (const d of gone) {
    const e = eventRecord(d);
    if (e) touched.add(e.taskId);
    else goneIgnored.add(d.file);
  }
  const cameRecords: TeamEventRecord[] = [];
  const cameIgnored: string[] = [];
  for (const d of came) {
    const e = eventRecord(d);
    if (e) {
      cameRecords.push(e);
      touched.add(e.taskId);
    } else cameIgnored.push(d.file);
  }
  const byTask = new Map(known.byTask);
  for (const id of touched) {
    // Events come in name order (the listing's), so a task's list is too.
    const list = (byTask.get(id) ?? []).filter((e) => !goneDocs.has(e.doc));
    for (const e of cameRecords) if (e.taskId === id) list.push(e);
    list.sort(byName);
    if (list.length > 0) byTask.set(id, list);
    else byTask.delete(id);
  }
  const ignoredEvents =
    goneIgnored.size === 0 && cameIgnored.length === 0
      ? known.ignoredEvents
      : [...known.ignoredEvents.filter((f) => !goneIgnored.has(f)), ...cameIgnored].sort();
  return { byTask, ignoredEvents };
}

/**
 * Builds the model of one run from its files. With `keep`, the model and its tasks are kept for the next call by
 * the documents they came from (for a caller that keeps documents between loads: the project index; `validate`
 * releases them and keeps nothing).
 */
export function teamRunModel(
  files: TeamRunFiles,
  hashOf: (artifact: string) => string | undefined,
  keep = false,
): TeamRunModel {
  // Records are kept by document only for a next derivation: without `keep` each is read once, not memoized.
  const eventOf = keep ? eventRecord : readEventRecord;
  const approvalOf = keep ? approvalRecord : readApprovalRecord;
  const records: TeamApprovalRecord[] = [];
  const unfit: string[] = [];
  for (const d of files.approvals) {
    const a = approvalOf(d);
    if (a) records.push(a);
    else unfit.push(d.file);
  }
  const { approvals, gates } = judgeApprovals(records, hashOf);
  const first = files.run ?? files.events[0] ?? files.approvals[0];
  const known = keep && first ? derivedModels.get(first) : undefined;
  const sameRun =
    known !== undefined &&
    known.model.id === files.id &&
    known.model.dir === files.dir &&
    known.files.run === files.run &&
    same(known.files.approvals, files.approvals) &&
    sameJudgement(known.model.approvals, approvals);
  if (sameRun && same(known.files.events, files.events)) return known.model;
  const patched = sameRun ? patchEvents(known, files) : undefined;
  let byTask: ReadonlyMap<string, readonly TeamEventRecord[]>;
  let ignoredEvents: readonly string[];
  if (patched) ({ byTask, ignoredEvents } = patched);
  else {
    const events: TeamEventRecord[] = [];
    const ignoredList: string[] = [];
    // A record read once takes its name from the listing (a path made one string only to cut its name from).
    const names = keep ? undefined : files.eventNames;
    for (let i = 0; i < files.events.length; i++) {
      const d = files.events[i]!;
      const e = names ? readEventRecord(d, names[i]) : eventOf(d);
      if (e) events.push(e);
      else ignoredList.push(d.file);
    }
    byTask = groupByTask(events);
    ignoredEvents = ignoredList;
  }
  const runOk = files.run !== undefined && fitForState(files.run, 'team/run');
  const ignored = [...(files.run && !runOk ? [files.run.file] : []), ...ignoredEvents, ...unfit];
  const model: TeamRunModel = {
    id: files.id,
    dir: files.dir,
    run: runOk ? (files.run!.value as Record<string, unknown>) : undefined,
    runDoc: files.run,
    tasks: tasksOfGroups(byTask, keep),
    approvals,
    gates,
    ignored,
  };
  if (keep && first) derivedModels.set(first, { files, model, byTask, ignoredEvents });
  return model;
}
