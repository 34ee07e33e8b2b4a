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
 * `eventRecord` without keeping it: for a document read once (`validate`). `name`: the document's file name when
 * the caller has it (`TeamRunFiles.eventNames`), else it is taken from the path.
 */
export function readEventRecord(doc: CheckedDocument, name?: string): TeamEventRecord | undefined {
  if (!fitForState(doc, 'team/task-event')) return undefined;
  const v = doc.value as Record<string, unknown>;
  const r: { -readonly [K in keyof TeamEventRecord]: TeamEventRecord[K] } = {
    doc,
    name: name ?? fileNameOf(doc.path),
    event: v.event as TeamEventRecord['event'],
    at: str(v.at),
    runId: str(v.run_id),
    taskId: str(v.task_id),
    stage: str(v.stage),
    agent: str(v.agent),
    attempt: v.attempt as number,
    status: str(v.status),
    session: nullable(v.session),
    parentSession: nullable(v.parent_session),
    inputs: strs(v.inputs),
    artifacts: strs(v.artifacts),
    evidence: str(v.evidence),
    next: str(v.next),
  };
  if (typeof v.retry_of === 'number') r.retryOf = v.retry_of;
  if (typeof v.reason === 'string') r.reason = v.reason;
  return r;
}

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
