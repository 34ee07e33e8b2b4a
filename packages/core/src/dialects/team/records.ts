import type { CheckedDocument } from '../dialect.js';
import { fileNameOf } from './names.js';

/** Terminal statuses of a `task_finished` event. */
export const TERMINAL_STATUSES = ['completed', 'failed', 'interrupted', 'awaiting_approval'] as const;
export type TeamTerminalStatus = (typeof TERMINAL_STATUSES)[number];

export function isTerminalStatus(s: unknown): s is TeamTerminalStatus {
  return typeof s === 'string' && (TERMINAL_STATUSES as readonly string[]).includes(s);
}

/** One task event, read from a document fit for state. */
export interface TeamEventRecord {
  readonly doc: CheckedDocument;
  /** The file name. */
  readonly name: string;
  readonly event: 'task_started' | 'task_finished';
  readonly at: string;
  readonly runId: string;
  readonly taskId: string;
  readonly stage: string;
  readonly agent: string;
  readonly attempt: number;
  readonly status: string;
  readonly session: string | null;
  readonly parentSession: string | null;
  readonly inputs: readonly string[];
  readonly artifacts: readonly string[];
  readonly evidence: string;
  readonly next: string;
  readonly retryOf?: number;
  readonly reason?: string;
}

/** One approval, read from a document fit for state. */
export interface TeamApprovalRecord {
  readonly doc: CheckedDocument;
  readonly name: string;
  readonly stage: string;
  readonly artifact: string;
  readonly sha256: string;
  readonly by: string;
  readonly approvedAt: string;
  readonly note?: string;
}

/** Codes that make a document unfit for state besides parse and schema errors. */
const DISQUALIFYING = new Set([
  'team/attempt-below-one',
  'team/finished-status-not-terminal',
  'team/path-outside-project',
]);

/**
 * True when a document may be used for state: it parsed, and no error finding says it is malformed. A malformed
 * event is ignored (never counted as a completed task); `--strict` unknown fields do not disqualify.
 */
export function fitForState(doc: CheckedDocument, kind: string): boolean {
  if (!doc.usable || doc.kind !== kind || doc.value === null || typeof doc.value !== 'object') return false;
  return !doc.findings.some(
    (f) =>
      f.severity === 'error' &&
      (f.code.startsWith('parse/') ||
        f.code.startsWith('io/') ||
        (f.code.startsWith('schema/') && f.code !== 'schema/unknown-field') ||
        // A path outside the project disqualifies an approval (never hash such a file), not an event's outcome.
        (DISQUALIFYING.has(f.code) && (f.code !== 'team/path-outside-project' || kind === 'team/approval'))),
  );
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/**
 * The strings of a list: the list itself when it holds nothing else (the usual case; records are only read, so they
 * may share the document's array), else a copy without the rest.
 */
const strs = (v: unknown): readonly string[] =>
  !Array.isArray(v)
    ? []
    : v.every((x) => typeof x === 'string')
      ? (v as string[])
      : v.filter((x): x is string => typeof x === 'string');
const nullable = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * Records by document identity: a document never changes once checked (a changed file is read into a new one),
 * so a project index that keeps documents between loads derives each record once.
 */
const eventRecords = new WeakMap<CheckedDocument, TeamEventRecord | null>();
const approvalRecords = new WeakMap<CheckedDocument, TeamApprovalRecord | null>();

/** The event a document holds, or undefined when it is not fit for state. */
export function eventRecord(doc: CheckedDocument): TeamEventRecord | undefined {
  let r = eventRecords.get(doc);
  if (r === undefined) {
    r = readEventRecord(doc) ?? null;
    eventRecords.set(doc, r);
  }
  return r ?? undefined;
}

/** The approval a document holds, or undefined when it is not fit for state. */
export function approvalRecord(doc: CheckedDocument): TeamApprovalRecord | undefined {
  let r = approvalRecords.get(doc);
  if (r === undefined) {
    r = readApprovalRecord(doc) ?? null;
    approvalRecords.set(doc, r);
  }
  return r ?? undefined;
}

/**
 * An event record over its document's value: each member is read from the value when asked for (what copying them
 * all gave, as a document never changes once checked). Three fields instead of seventeen: a 100k-event run keeps
 * 100k records, every one copied by the scavenger, and most members are read once or never.
 */
class EventRecord implements TeamEventRecord {
  constructor(
    readonly doc: CheckedDocument,
    readonly name: string,
    private readonly v: Record<string, unknown>,
  ) {}

  get event(): TeamEventRecord['event'] {
    return this.v.event as TeamEventRecord['event'];
  }
  get at(): string {
    return str(this.v.at);
  }
  get runId(): string {
    return str(this.v.run_id);
  }
  get taskId(): string {
    return str(this.v.task_id);
  }
  get stage(): string {
    return str(this.v.stage);
  }
  get agent(): string {
    return str(this.v.agent);
  }
  get attempt(): number {
    return this.v.attempt as number;
  }
  get status(): string {
    return str(this.v.status);
  }
  get session(): string | null {
    return nullable(this.v.session);
  }
  get parentSession(): string | null {
    return nullable(this.v.parent_session);
  }
  get inputs(): readonly string[] {
    return strs(this.v.inputs);
  }
  get artifacts(): readonly string[] {
    return strs(this.v.artifacts);
  }
  get evidence(): string {
    return str(this.v.evidence);
  }
  get next(): string {
    return str(this.v.next);
  }
  get retryOf(): number | undefined {
    const r = this.v.retry_of;
    return typeof r === 'number' ? r : undefined;
  }
  get reason(): string | undefined {
    const r = this.v.reason;
    return typeof r === 'string' ? r : undefined;
  }
}

/**
 * `eventRecord` without keeping it: for a document read once (`validate`). `name`: the document's file name when
 * the caller has it (`TeamRunFiles.eventNames`), else it is taken from the path.
 */
export function readEventRecord(doc: CheckedDocument, name?: string): TeamEventRecord | undefined {
  if (!fitForState(doc, 'team/task-event')) return undefined;
  return new EventRecord(doc, name ?? fileNameOf(doc.path), doc.value as Record<string, unknown>);
}

/**
 * A task event's value with only the members a run's state is derived from: its tasks, attempts and their statuses,
 * the tree rules' findings (`retry_of`) and the resume plan (the artifacts a waiting gate names). What a unit's
 * detail alone shows (inputs, evidence, next, sessions, a retry's reason) and the run id are left out. For a load
 * whose runs are only summarized (`ckpt status`, `ckpt list`): the records read from it give every summary, status
 * and finding that the whole value gives. Anything but a plain object is returned as it is.
 */
export function eventStateValue(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  const has = Object.hasOwn;
  if (
    !(
      has(o, 'event') &&
      has(o, 'at') &&
      has(o, 'task_id') &&
      has(o, 'stage') &&
      has(o, 'agent') &&
      has(o, 'attempt') &&
      has(o, 'status') &&
      has(o, 'artifacts')
    )
  ) {
    const out: Record<string, unknown> = {};
    for (const k of EVENT_STATE_MEMBERS) if (has(o, k)) out[k] = o[k];
    return out;
  }
  const { event, at, task_id, stage, agent, attempt, status, artifacts } = o;
  return has(o, 'retry_of')
    ? { event, at, task_id, stage, agent, attempt, status, artifacts, retry_of: o.retry_of }
    : { event, at, task_id, stage, agent, attempt, status, artifacts };
}

/** The members `eventStateValue` keeps. */
const EVENT_STATE_MEMBERS = [
  'event',
  'at',
  'task_id',
  'stage',
  'agent',
  'attempt',
  'status',
  'artifacts',
  'retry_of',
] as const;

/** `approvalRecord` without keeping it: for a document read once (`validate`). */
export function readApprovalRecord(doc: CheckedDocument): TeamApprovalRecord | undefined {
  if (!fitForState(doc, 'team/approval')) return undefined;
  const v = doc.value as Record<string, unknown>;
  return {
    doc,
    name: fileNameOf(doc.path),
    stage: str(v.stage),
    artifact: str(v.artifact),
    sha256: str(v.sha256),
    by: str(v.by),
    approvedAt: str(v.approved_at),
    ...(typeof v.note === 'string' ? { note: v.note } : {}),
  };
}
