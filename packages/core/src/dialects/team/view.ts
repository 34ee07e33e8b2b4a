import { compareFindings, type Finding } from '../../findings/finding.js';
import type {
  AttemptView,
  PhaseView,
  ResumeItem,
  ResumePlan,
  RunFacts,
  SourceFile,
  Tone,
  UnitView,
} from '../../view/run-view.js';
import type { CheckedDocument } from '../dialect.js';
import type { TeamRunFiles } from './load.js';
import type { TeamAttempt, TeamRunModel, TeamTask } from './model.js';
import type { TeamEventRecord } from './records.js';
import { type TeamResumePlan, type TeamResumeTask, teamResumePlan, UNCERTAIN_GUIDANCE } from './resume.js';

export const TEAM_TONES: Record<string, Tone> = {
  completed: 'ok',
  approved: 'ok',
  'running (uncertain)': 'active',
  running: 'active',
  failed: 'error',
  interrupted: 'warning',
  awaiting_approval: 'warning',
  conflict: 'error',
  'needs attention': 'error',
  unreadable: 'error',
};

const ms = (a?: string, b?: string) => {
  if (!a || !b) return undefined;
  const d = Date.parse(b) - Date.parse(a);
  return Number.isFinite(d) && d >= 0 ? d : undefined;
};

/** A view under construction: its optional members are set in the order the type lists them (JSON key order). */
type Building<T> = { -readonly [K in keyof T]: T[K] };

/** Each artifact once, in order of first mention. */
function artifactsOf(events: readonly TeamEventRecord[]): string[] {
  if (events.length === 1)
    return events[0]!.artifacts.length < 2 ? [...events[0]!.artifacts] : [...new Set(events[0]!.artifacts)];
  const out = new Set<string>();
  for (const e of events) for (const a of e.artifacts) out.add(a);
  return [...out];
}

function attemptView(a: TeamAttempt): AttemptView {
  const start = a.started[0];
  const end = a.terminals[0];
  const last = a.terminals.length === 1 ? end : undefined;
  const v = {
    attempt: a.attempt,
    status: a.status,
    tone: TEAM_TONES[a.status] ?? 'neutral',
  } as Building<AttemptView>;
  if (start) v.startedAt = start.at;
  if (last) v.endedAt = last.at;
  const duration = ms(start?.at, last?.at);
  if (duration !== undefined) v.durationMs = duration;
  const first = start ?? end;
  if (first) v.agent = first.agent;
  if (start?.retryOf !== undefined) v.retryOf = start.retryOf;
  if (start?.reason !== undefined) v.reason = start.reason;
  if (last?.evidence) v.evidence = last.evidence;
  if (last?.next) v.next = last.next;
  v.artifacts = artifactsOf(a.terminals);
  // Made the size it holds (not grown by `push`: room for 17 files, ~150 bytes an attempt).
  const sources = new Array<string>(a.started.length + a.terminals.length);
  let k = 0;
  for (const e of a.started) sources[k++] = e.doc.file;
  for (const e of a.terminals) sources[k++] = e.doc.file;
  v.sources = sources;
  return v;
}

/** A task's view and its latest event time, by task identity (a task whose events did not change is the same object). */
const taskViews = new WeakMap<TeamTask, { readonly unit: UnitView; readonly lastAt: string | undefined }>();

function taskView(
  t: TeamTask,
  keep: boolean,
): { readonly unit: UnitView; readonly lastAt: string | undefined } {
  let v = keep ? taskViews.get(t) : undefined;
  if (!v) {
    v = { unit: unitView(t, !keep), lastAt: lastEventAt(t) };
    if (keep) taskViews.set(t, v);
  }
  return v;
}

/**
 * Where a unit view made for a one-shot load keeps its task until its attempts are first read, then their views
 * (not enumerable: JSON, spreads and `Object.entries` do not see it).
 */
const ATTEMPTS = Symbol('attempts');

type LazyAttempts = { [ATTEMPTS]: TeamTask | readonly AttemptView[] };

/** The getter of a lazily made unit's `attempts`: one function for every unit, so they share their shapes. */
function attemptsOnRead(this: LazyAttempts): readonly AttemptView[] {
  const held = this[ATTEMPTS];
  if (Array.isArray(held)) return held;
  const made = (held as TeamTask).attempts.map(attemptView);
  this[ATTEMPTS] = made;
  return made;
}

const LAZY_ATTEMPTS: PropertyDescriptor = { get: attemptsOnRead, enumerable: true, configurable: true };

/** A run's sources as a member made on first read, in its place (as a unit's `attempts`, `unitView`). */
function lazySources(facts: RunFacts, files: TeamRunFiles): RunFacts {
  let made: readonly SourceFile[] | undefined;
  Object.defineProperty(facts, 'sources', {
    get: () => {
      made ??= sourcesMade(files);
      return made;
    },
    enumerable: true,
    configurable: true,
  });
  return facts;
}

/** The source entry of a document, by document identity. */
const sourceFiles = new WeakMap<CheckedDocument, SourceFile>();

function sourceOf(d: CheckedDocument): SourceFile {
  let s = sourceFiles.get(d);
  if (!s) {
    s = { path: d.file, kind: d.kind };
    sourceFiles.set(d, s);
  }
  return s;
}

/**
 * A run's sources by its first document, with the files they were made from: a run whose documents have the same
 * paths and kinds as last time (an event rewritten in place) keeps the same list, so it is not walked again.
 */
const derivedSources = new WeakMap<
  CheckedDocument,
  { files: TeamRunFiles; sources: readonly SourceFile[] }
>();

const sameListed = (a: readonly CheckedDocument[], b: readonly CheckedDocument[]) => {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y && (x.file !== y.file || x.kind !== y.kind)) return false;
  }
  return true;
};

/** A run's sources, made once for a load that keeps nothing (`keep` false; `lazySources`). */
function sourcesMade(files: TeamRunFiles): SourceFile[] {
  const sources: SourceFile[] = [];
  const add = (d: CheckedDocument) => sources.push({ path: d.file, kind: d.kind });
  if (files.run) add(files.run);
  for (const d of files.events) add(d);
  for (const d of files.approvals) add(d);
  return sources;
}

function sourcesOf(files: TeamRunFiles): readonly SourceFile[] {
  const first = files.run ?? files.events[0] ?? files.approvals[0];
  const known = first ? derivedSources.get(first) : undefined;
  if (
    known &&
    (known.files.run === files.run ||
      (known.files.run !== undefined &&
        files.run !== undefined &&
        sameListed([known.files.run], [files.run]))) &&
    sameListed(known.files.events, files.events) &&
    sameListed(known.files.approvals, files.approvals)
  )
    return known.sources;
  const sources: SourceFile[] = [];
  if (files.run) sources.push(sourceOf(files.run));
  for (const d of files.events) sources.push(sourceOf(d));
  for (const d of files.approvals) sources.push(sourceOf(d));
  if (first) derivedSources.set(first, { files, sources });
  return sources;
}

/** The members every unit view of a task starts with, in order: id, status, tone, stage, agent, dependsOn, note. */
function unitHead(t: TeamTask, dependsOn: readonly string[]): Partial<Building<UnitView>> {
  const status = t.latest.status;
  const v = {
    id: t.id,
    status,
    tone: TEAM_TONES[status] ?? 'neutral',
    stage: t.stage,
    agent: t.agent,
    dependsOn,
  } as Partial<Building<UnitView>>;
  if (status === 'running (uncertain)') v.note = UNCERTAIN_GUIDANCE;
  return v;
}

/**
 * The view of one task. `lazy` (a one-shot load): its `attempts` are made when first read, in the place the member
 * would have had (JSON key order, spreads and `Object.entries` see the same): `ckpt status` without `--json` prints
 * only each run's summary and never reads the ~50k attempt views of a 10k-task run.
 */
function unitView(t: TeamTask, lazy = false): UnitView {
  const l = t.latest;
  const start = l.started[0];
  const end = l.terminals.length === 1 ? l.terminals[0] : undefined;
  const firstStart = t.attempts[0]!.started[0]?.at;
  const v = unitHead(t, []);
  if (end?.evidence) v.evidence = end.evidence;
  if (end?.next) v.next = end.next;
  v.inputs = (start ?? l.terminals[0])?.inputs ?? [];
  v.artifacts = artifactsOf(l.terminals);
  if (firstStart) v.startedAt = firstStart;
  if (end) v.finishedAt = end.at;
  const duration = ms(firstStart, end?.at);
  if (duration !== undefined) v.durationMs = duration;
  if (lazy) {
    Object.defineProperty(v, ATTEMPTS, { value: t, writable: true });
    Object.defineProperty(v, 'attempts', LAZY_ATTEMPTS);
  } else v.attempts = t.attempts.map(attemptView);
  return v as UnitView;
}

/** What a summary-only view's units hold in place of lists neither a summary nor attention reads. */
const NONE: readonly never[] = Object.freeze([]);

/**
 * A task's unit in a view read for its run's one-line facts and attention only (`teamRunView`'s `summaryOnly`):
 * the members `unitView` gives those (id, status, tone, note), with its stage and agent, and empty lists; no
 * times, inputs, artifacts or attempts.
 */
function unitSummary(t: TeamTask): UnitView {
  const v = unitHead(t, NONE);
  v.inputs = NONE;
  v.artifacts = NONE;
  v.attempts = NONE;
  return v as UnitView;
}

/** The time of a task's latest event. */
function lastEventAt(t: TeamTask): string | undefined {
  let lastAt: string | undefined;
  for (const a of t.attempts) {
    for (const e of a.started) if (lastAt === undefined || e.at > lastAt) lastAt = e.at;
    for (const e of a.terminals) if (lastAt === undefined || e.at > lastAt) lastAt = e.at;
  }
  return lastAt;
}

function phases(model: TeamRunModel, plan: TeamResumePlan): PhaseView[] {
  const stages: string[] = [];
  const runStage = typeof model.run?.stage === 'string' ? model.run.stage : undefined;
  if (runStage) stages.push(runStage);
  for (const t of model.tasks) if (!stages.includes(t.stage)) stages.push(t.stage);
  for (const g of model.gates) if (!stages.includes(g.stage)) stages.push(g.stage);
  const lastStage = model.tasks.at(-1)?.stage ?? runStage;
  return stages.map((id) => {
    const st = model.tasks.filter((t) => t.stage === id).map((t) => t.latest.status);
    const gate = model.gates.find((g) => g.stage === id);
    const waiting = plan.awaitingApproval.some((w) => w.stage === id);
    const status = st.includes('conflict')
      ? 'conflict'
      : st.includes('running (uncertain)')
        ? 'running'
        : st.includes('failed') || st.includes('interrupted')
          ? 'needs attention'
          : waiting
            ? 'awaiting_approval'
            : gate?.approved
              ? 'approved'
              : st.length > 0
                ? 'completed'
                : 'pending';
    return {
      id,
      status,
      tone: TEAM_TONES[status] ?? 'neutral',
      ...(id === lastStage ? { current: true } : {}),
      ...(gate
        ? {
            note: gate.approved
              ? 'gate approved (matching hash)'
              : 'gate not approved: every approval is stale',
          }
        : {}),
    };
  });
}

/** The ResumeItem of a plan item, by the item's identity (an unchanged task keeps its plan item, resume.ts). */
const resumeItems = new WeakMap<TeamResumeTask, ResumeItem>();

const madeItem = (t: TeamResumeTask): ResumeItem => ({ id: t.task, reason: t.reason });

function keptItem(t: TeamResumeTask): ResumeItem {
  let item = resumeItems.get(t);
  if (!item) {
    item = madeItem(t);
    resumeItems.set(t, item);
  }
  return item;
}

/**
 * The normalized ResumePlan of a team run. `keep`: its items are kept by the plan's items, for a next load that
 * gives the same tasks (the project index). `summaryOnly`: no `skip` items (neither a summary nor attention reads
 * them; `teamRunView`).
 */
export function teamPlanView(plan: TeamResumePlan, keep = true, summaryOnly = false): ResumePlan {
  const resumeItem = keep ? keptItem : madeItem;
  const n = (x: readonly unknown[], w: string) => (x.length > 0 ? [`${x.length} ${w}`] : []);
  const parts = [
    ...n(plan.conflicts, 'in conflict'),
    ...n(plan.running, 'running (uncertain)'),
    ...n(plan.retry, 'to retry'),
    ...n(plan.awaitingApproval, 'gate(s) awaiting approval'),
    ...n(plan.completed, 'completed'),
  ];
  return {
    summary: parts.length > 0 ? parts.join(', ') : 'no tasks yet',
    skip: summaryOnly ? [] : plan.completed.map(resumeItem),
    runNext: plan.retry.map(resumeItem),
    blocked: plan.conflicts.map(resumeItem),
    needsPerson: [
      ...plan.running.map(resumeItem),
      ...plan.awaitingApproval.map((g) => ({
        id: `gate:${g.stage}`,
        reason: `${g.tasks.join(', ')}: ${g.reason}`,
      })),
    ],
    notes: [
      'read status before planning or dispatching',
      'checkpoints do not guarantee exactly-once side effects: re-check external state before retrying',
    ],
    native: plan,
  };
}

/**
 * The RunView of one team run. `findings` are every finding of the run's files (parse, schema, semantic). `keep`:
 * its parts are kept by the identity of what they were made from, for a next load (false: a one-shot load).
 * `summaryOnly` (a one-shot load read for summaries only, `TreeContext.summariesOnly`): every member a summary
 * (`summarizeRun`) and attention (`attentionOf`) read is as without; the units hold only their id, status, tone,
 * note, stage and agent (`unitSummary`), and there are no phases and no `skip` items in the resume plan.
 */
export function teamRunView(
  model: TeamRunModel,
  files: TeamRunFiles,
  display: (abs: string) => string,
  findings: readonly Finding[],
  isCurrent: boolean,
  keep = true,
  summaryOnly = false,
): RunFacts {
  const plan = teamResumePlan(model, keep);
  const units: UnitView[] = [];
  const counts: Record<string, number> = Object.create(null);
  // The latest time of any event or approval (what sorting them all and taking the last gave).
  let updatedAt: string | undefined;
  for (const t of model.tasks) {
    const v = summaryOnly ? { unit: unitSummary(t), lastAt: lastEventAt(t) } : taskView(t, keep);
    units.push(v.unit);
    counts[v.unit.status] = (counts[v.unit.status] ?? 0) + 1;
    if (v.lastAt !== undefined && (updatedAt === undefined || v.lastAt > updatedAt)) updatedAt = v.lastAt;
  }
  for (const a of model.approvals)
    if (updatedAt === undefined || a.approvedAt > updatedAt) updatedAt = a.approvedAt;
  // Without a readable run.json the run is not known to be complete, whatever its events say.
  const status = !model.run
    ? 'unreadable'
    : plan.conflicts.length > 0
      ? 'conflict'
      : plan.running.length > 0
        ? 'running'
        : plan.retry.length > 0
          ? 'needs attention'
          : plan.awaitingApproval.length > 0
            ? 'awaiting_approval'
            : units.length > 0
              ? 'completed'
              : 'running';
  const r = model.run;
  const s = (k: string) => (typeof r?.[k] === 'string' ? (r[k] as string) : undefined);
  // A one-shot load makes its sources (every document of the run) when first read: `lazySources` below.
  const sources = keep ? sourcesOf(files) : [];
  const facts: RunFacts = {
    id: model.id,
    dialect: 'team',
    title: `team run ${s('profile') ?? '?'} · ${s('stage') ?? '?'}`,
    status,
    tone: TEAM_TONES[status] ?? 'neutral',
    root: display(model.dir),
    sources,
    ...(s('created_at') ? { createdAt: s('created_at')! } : {}),
    ...(updatedAt ? { updatedAt } : {}),
    phases: summaryOnly ? [] : phases(model, plan),
    units,
    approvals: model.approvals.map((a) => ({
      stage: a.stage,
      artifact: a.artifact,
      by: a.by,
      approvedAt: a.approvedAt,
      ...(a.note ? { note: a.note } : {}),
      state: a.state,
      source: a.doc.file,
    })),
    counts,
    progress: { done: plan.completed.length, total: units.length },
    findings: [...findings].sort(compareFindings),
    resume: teamPlanView(plan, keep, summaryOnly),
    details: [
      { label: 'current', value: isCurrent ? 'yes (the run status shows)' : 'no' },
      { label: 'profile', value: s('profile') ?? '—' },
      { label: 'started at stage', value: s('stage') ?? '—' },
      { label: 'run.json status', value: s('status') ?? '—' },
      { label: 'session', value: s('session') ?? '—' },
      ...(model.ignored.length > 0
        ? [{ label: 'ignored (malformed)', value: model.ignored.join(', ') }]
        : []),
    ],
  };
  return keep ? facts : lazySources(facts, files);
}
