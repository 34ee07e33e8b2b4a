import { join } from 'node:path';
import type { Finding } from '../../findings/finding.js';
import { shellCommand } from '../../text/shell-quote.js';
import type { CheckedDocument } from '../dialect.js';
import { hashProjectFile, isRun, newestRun, type TeamRunFiles, type TeamTree } from './load.js';
import {
  judgeApprovals,
  type TeamApproval,
  type TeamRunModel,
  type TeamTask,
  tasksOf,
  teamRunModel,
} from './model.js';
import {
  fitForState,
  isTerminalStatus,
  readApprovalRecord,
  readEventRecord,
  TERMINAL_STATUSES,
  type TeamApprovalRecord,
  type TeamEventRecord,
} from './records.js';
import { fileFinding, teamFinding } from './rules.js';

const list = (names: readonly string[]) => names.map((n) => `"${n}"`).join(', ');

/** A task's findings by task identity (model.ts keeps the same task object while its events are the same). */
const derivedFindings = new WeakMap<TeamTask, readonly Finding[]>();

function taskFindings(task: TeamTask, keep: boolean): readonly Finding[] {
  if (!keep) return findTaskFindings(task);
  let found = derivedFindings.get(task);
  if (!found) {
    found = findTaskFindings(task);
    derivedFindings.set(task, found);
  }
  return found;
}

const names = (events: readonly TeamEventRecord[]) => list(events.map((x) => x.name));

function findTaskFindings(task: TeamTask): Finding[] {
  const out: Finding[] = [];
  let expected = 1;
  const attempts = task.attempts;
  for (let i = 0; i < attempts.length; i++) {
    const a = attempts[i]!;
    const { started, terminals } = a;
    if (a.attempt > expected)
      out.push(
        teamFinding(
          (started[0] ?? terminals[0]!).doc,
          '/attempt',
          'team/attempt-gap',
          `task "${task.id}" has attempt ${a.attempt} but no attempt ${expected}`,
        ),
      );
    expected = a.attempt + 1;
    if (terminals.length >= 2) {
      const statuses = terminals.map((x) => x.status).join(', ');
      for (let j = 1; j < terminals.length; j++)
        out.push(
          teamFinding(
            terminals[j]!.doc,
            '',
            'team/conflicting-terminal-events',
            `task "${task.id}" attempt ${a.attempt} has ${terminals.length} terminal events (${statuses}): ${names(terminals)}; status reports a conflict and picks none`,
            `compare with ${terminals[0]!.name}`,
          ),
        );
    }
    for (let j = 1; j < started.length; j++)
      out.push(
        teamFinding(
          started[j]!.doc,
          '',
          'team/duplicate-start',
          `task "${task.id}" attempt ${a.attempt} was started twice (${names(started)})`,
        ),
      );
    if (started.length === 0)
      for (const t of terminals)
        out.push(
          teamFinding(
            t.doc,
            '',
            'team/missing-start',
            `task "${task.id}" attempt ${a.attempt} has no task_started event`,
          ),
        );
    if (terminals.length > 0) {
      // The earliest end (what sorting the times and taking the first gives).
      let firstEnd = terminals[0]!.at;
      for (let j = 1; j < terminals.length; j++) if (terminals[j]!.at < firstEnd) firstEnd = terminals[j]!.at;
      for (const s of started)
        if (s.at > firstEnd)
          out.push(
            teamFinding(
              s.doc,
              '/at',
              'team/started-after-terminal',
              `task "${task.id}" attempt ${a.attempt} started at ${s.at}, after it ended at ${firstEnd}`,
            ),
          );
    }
    const prev = i > 0 ? attempts[i - 1] : undefined;
    const start = started[0];
    if (start && a.attempt > 1) {
      if (start.retryOf !== undefined && start.retryOf !== a.attempt - 1)
        out.push(
          teamFinding(
            start.doc,
            '/retry_of',
            'team/invalid-retry',
            `attempt ${a.attempt} says retry_of ${start.retryOf}; expected ${a.attempt - 1}`,
          ),
        );
      else if (
        prev &&
        prev.attempt === a.attempt - 1 &&
        prev.status !== 'failed' &&
        prev.status !== 'interrupted'
      )
        out.push(
          teamFinding(
            start.doc,
            '',
            'team/invalid-retry',
            `task "${task.id}" attempt ${a.attempt} retries attempt ${prev.attempt}, which is ${prev.status}; only a failed or interrupted attempt may be retried`,
          ),
        );
    }
  }
  return out;
}

/**
 * The semantic findings across one run's files. Pure over the model. `keep`: a task's findings are kept by task
 * identity for the next call (for models that are kept between loads; `validate` builds each model once).
 */
export function runFindings(model: TeamRunModel, display?: (abs: string) => string, keep = true): Finding[] {
  const out: Finding[] = [];
  for (const t of model.tasks) for (const f of taskFindings(t, keep)) out.push(f);
  runFileFindings(model, model.approvals, display, out);
  return out;
}

/**
 * `runFindings` of the model of a run's files, for `validate`, without building the model: it is what the
 * tasks and approvals are derived from, and `validate` uses nothing else of it. A task whose events cannot hold a
 * finding (`quietTask`: the common one) is passed over; any other is derived as the model derives it (`tasksOf`
 * over its event records) and its findings found by the same rules. Findings come in the order of the tasks'
 * first events instead of the model's task order: `validate` sorts each file's findings, and a task's findings
 * are on its own files, in the same order.
 */
export function unitRunFindings(
  files: TeamRunFiles,
  hashOf: (rel: string) => string | undefined,
  display: (abs: string) => string,
): Finding[] {
  const out: Finding[] = [];
  // The fit events by task id, in the order given (what the model groups its tasks from): a task's first event
  // alone, its events in a list from the second on (most tasks have two: no list grown from one).
  const byTask = new Map<string, CheckedDocument | CheckedDocument[]>();
  // Indexed: without the optimizing compiler (a brief `validate`) each step of a for-of allocates.
  const events = files.events;
  for (let i = 0; i < events.length; i++) {
    const doc = events[i]!;
    if (!fitEvent(doc)) continue;
    const id = (doc.value as Record<string, unknown>).task_id;
    const taskId = typeof id === 'string' ? id : '';
    const held = byTask.get(taskId);
    if (held === undefined) byTask.set(taskId, doc);
    else if (Array.isArray(held)) held.push(doc);
    else byTask.set(taskId, [held, doc]);
  }
  // forEach: a Map's iterator allocates at each step too.
  byTask.forEach((held) => {
    const docs = Array.isArray(held) ? held : [held];
    if (quietTask(docs)) return;
    const records: TeamEventRecord[] = [];
    for (const d of docs) records.push(readEventRecord(d)!);
    for (const task of tasksOf(records)) for (const f of findTaskFindings(task)) out.push(f);
  });
  const records: TeamApprovalRecord[] = [];
  for (const d of files.approvals) {
    const a = readApprovalRecord(d);
    if (a) records.push(a);
  }
  const run = { id: files.id, dir: files.dir, runDoc: files.run };
  runFileFindings(run, judgeApprovals(records, hashOf).approvals, display, out);
  return out;
}

/**
 * `fitForState(doc, 'team/task-event')`, without making its findings' test (a closure) for a document that has no
 * finding (nearly every one): such a document is fit when it is a usable task event whose value is an object.
 */
function fitEvent(doc: CheckedDocument): boolean {
  if (doc.findings.length > 0) return fitForState(doc, 'team/task-event');
  const v = doc.value;
  return doc.usable && doc.kind === 'team/task-event' && v !== null && typeof v === 'object';
}

/**
 * True when a task's fit events (`fitForState`) are one attempt 1 with one start and at most one terminal event
 * not before it: `findTaskFindings` finds nothing on such a task (no gap, conflict, second start, missing start,
 * start after the end or retry).
 */
function quietTask(docs: readonly CheckedDocument[]): boolean {
  let started: Record<string, unknown> | undefined;
  let terminal: Record<string, unknown> | undefined;
  for (let i = 0; i < docs.length; i++) {
    const v = docs[i]!.value as Record<string, unknown>;
    if (v.attempt !== 1) return false;
    if (v.event === 'task_started') {
      if (started) return false;
      started = v;
    } else if (isTerminalStatus(v.status)) {
      if (terminal) return false;
      terminal = v;
    } else return false;
  }
  if (!started) return false;
  return !terminal || !(str(started.at) > str(terminal.at));
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The findings on a run's run.json (missing, unreadable) and approvals (stale ones), into `out`. */
function runFileFindings(
  run: Pick<TeamRunModel, 'id' | 'dir' | 'runDoc'>,
  approvals: readonly TeamApproval[],
  display: ((abs: string) => string) | undefined,
  out: Finding[],
): void {
  const missing = display && runJsonMissing(run);
  if (missing) out.push(fileFinding(display(join(run.dir, 'run.json')), 'team/missing-run-json', missing));
  for (const a of approvals)
    if (a.state !== 'valid' && a.latestForArtifact)
      out.push(
        teamFinding(
          a.doc,
          '',
          'team/stale-approval',
          `approval of "${a.artifact}" for stage "${a.stage}" is ${a.state}; the gate does not count it`,
          `review the artifact and record a new approval with \`${shellCommand(['ckpt', 'team', 'approve', '--run', run.id, '--stage', a.stage, '--artifact', a.artifact])} --by "$USER"\``,
        ),
      );
}

/**
 * Why a run (it has events or approvals) has no readable run.json, or undefined: deleted, or a directory, FIFO,
 * dangling link or link loop in its place. Such a run is never complete, whatever its events say.
 */
function runJsonMissing(model: Pick<TeamRunModel, 'id' | 'runDoc'>): string | undefined {
  const doc = model.runDoc;
  if (!doc) return `run "${model.id}" has events but no run.json: it cannot be told complete`;
  const io = doc.text === undefined ? doc.findings.find((f) => f.code.startsWith('io/')) : undefined;
  return io ? `run.json cannot be read (${io.code}): run "${model.id}" cannot be told complete` : undefined;
}

/** Findings about `current`, temp files and interrupted start-runs. */
export function treeFileFindings(tree: TeamTree, display: (abs: string) => string): Finding[] {
  const out: Finding[] = [];
  const cur = tree.current;
  const newest = newestRun(tree);
  if (cur.exists) {
    const named = cur.value ? tree.runs.find((r) => r.id === cur.value && isRun(r)) : undefined;
    if (!named)
      out.push(
        fileFinding(
          display(cur.path),
          'team/dangling-current',
          cur.value
            ? `current names "${cur.value.slice(0, 80)}", which is not a run`
            : 'current is empty or unreadable',
          newest ? `status uses the newest run, ${newest.id}` : undefined,
        ),
      );
    else if (newest && named.id < newest.id)
      out.push(
        fileFinding(
          display(cur.path),
          'team/current-not-newest',
          `current names ${named.id}, older than the newest run ${newest.id}`,
        ),
      );
  }
  for (const r of tree.runs)
    if (!isRun(r))
      out.push(fileFinding(display(r.dir), 'team/incomplete-run', `run directory "${r.id}" has no run.json`));
  for (const t of [...tree.tempFiles, ...tree.runs.flatMap((r) => r.tempFiles)])
    out.push(
      fileFinding(
        display(t),
        'team/leftover-temp-file',
        'temporary file left by an interrupted write; readers ignore it',
      ),
    );
  return out;
}

/** The members of each kind the tree rules read (records.ts: eventRecord, approvalRecord, fitForState). */
const TREE_FIELDS: Record<string, readonly string[] | undefined> = {
  'team/task-event': ['event', 'at', 'task_id', 'attempt', 'status', 'retry_of'],
  'team/approval': ['stage', 'artifact', 'sha256', 'approved_at'],
};

/** The own members of `v` among `fields`, in that order. */
function pick(v: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of fields) if (Object.hasOwn(v, k)) out[k] = v[k];
  return out;
}

/** The usual statuses of an event, each as one string. */
const STATUSES = new Map<string, string>(['running', ...TERMINAL_STATUSES].map((x) => [x, x]));

/** `pick` of an event's tree fields, as one literal when the five an event must have are there (one shape). */
function eventTreeValue(v: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const has = Object.hasOwn;
  if (!(has(v, 'event') && has(v, 'at') && has(v, 'task_id') && has(v, 'attempt') && has(v, 'status')))
    return pick(v, fields);
  const { at, task_id, attempt } = v;
  // One copy of each usual event name and status for every record (JSON.parse makes one per document).
  const event =
    v.event === 'task_started' ? 'task_started' : v.event === 'task_finished' ? 'task_finished' : v.event;
  const status = typeof v.status === 'string' ? (STATUSES.get(v.status) ?? v.status) : v.status;
  return has(v, 'retry_of')
    ? { event, at, task_id, attempt, status, retry_of: v.retry_of }
    : { event, at, task_id, attempt, status };
}

/**
 * What `validate` keeps of a team document for the tree rules: of an event or approval, only the members the run
 * rules read (a task event is ~450 bytes of text and 16 members; the rules read 6); a run.json whole. An
 * approval (a few per run) keeps its text too: a stale one is reported at its whole document, whose position is
 * then found from that text instead of reading the file again.
 */
export function teamTreeRecord(doc: CheckedDocument): { value: unknown; text: string | undefined } {
  const fields = doc.kind ? TREE_FIELDS[doc.kind] : undefined;
  const v = doc.value;
  if (!fields || v === null || typeof v !== 'object' || Array.isArray(v))
    return { value: v, text: undefined };
  const o = v as Record<string, unknown>;
  if (doc.kind === 'team/task-event') return { value: eventTreeValue(o, fields), text: undefined };
  return { value: pick(o, fields), text: doc.text };
}

/**
 * sha256 of a project file by project-relative path, each path hashed once by this hasher (give one hasher to the
 * runs of one pass: the approvals of every run of a root name the same few artifacts).
 */
export function projectHasher(projectDir: string): (rel: string) => string | undefined {
  const cache = new Map<string, string | undefined>();
  return (rel) => {
    if (!cache.has(rel)) cache.set(rel, hashProjectFile(projectDir, rel));
    return cache.get(rel);
  };
}

/** Every model of a tree (artifacts hashed once per path by `hashOf`); `keep`: see `teamRunModel`. */
export function teamModels(
  tree: TeamTree,
  keep = false,
  hashOf: (rel: string) => string | undefined = projectHasher(tree.projectDir),
): TeamRunModel[] {
  return tree.runs.filter(isRun).map((r) => teamRunModel(r, hashOf, keep));
}
