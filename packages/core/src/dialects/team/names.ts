import { basename, sep } from 'node:path';
import { randomBytes } from '../../util/crypto.js';

/** A team run id: `<yyyymmddThhmmss><6 fraction digits>Z-<6 hex>`. */
export const RUN_ID_RE = /^[0-9]{8}T[0-9]{12}Z-[0-9a-f]{6}$/;

// Readers accept what writers may reasonably produce: a compact UTC time with or without a fraction, and any
// alphanumeric token (ckpt writes 6 fraction digits and 6 lowercase hex, as in run ids).
const EVENT_NAME_RE =
  /^([0-9]{8}T[0-9]{6}(?:[0-9]{1,9})?Z)-(task_started|task_finished)-(.+)-a(-?[0-9]+)-([0-9A-Za-z]{4,32})\.json$/;
const APPROVAL_NAME_RE = /^([0-9]{8}T[0-9]{6}(?:[0-9]{1,9})?Z)-(.+)-([0-9A-Za-z]{4,32})\.json$/;

/** The fields an event file name carries. */
export interface EventFileName {
  readonly time: string;
  readonly event: 'task_started' | 'task_finished';
  readonly task: string;
  readonly attempt: number;
  readonly token: string;
}

export function parseEventFileName(name: string): EventFileName | undefined {
  const m = EVENT_NAME_RE.exec(name);
  if (!m) return undefined;
  return {
    time: m[1]!,
    event: m[2] as EventFileName['event'],
    task: m[3]!,
    attempt: Number(m[4]),
    token: m[5]!,
  };
}

const isDigit = (c: number) => c >= 48 && c <= 57;
// `c | 32` folds A-Z onto a-z (and nothing else onto them).
const isAlnum = (c: number) => isDigit(c) || ((c | 32) >= 97 && (c | 32) <= 122);
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * True when the text from `at` to the end is an event file name that `parseEventFileName` reads as exactly this
 * event, task and attempt: `<time>-<event>-<task>-a<attempt>-<token>.json`, checked piece by piece without the
 * regular expression or any string built (validate asks this of every event). Such a name is parsed into these
 * very parts: the expression's greedy task cannot end later, as no later `-a<digits>-<token>.json` fits in what
 * follows the task. False says nothing: ask `parseEventFileName`.
 */
export function eventFileNameIs(
  text: string,
  at: number,
  event: string,
  task: string,
  attempt: number,
): boolean {
  if (event !== 'task_started' && event !== 'task_finished') return false;
  if (task.length === 0 || LINE_BREAK.test(task)) return false;
  // Only an integer below 1e21 is written as plain digits.
  if (!Number.isInteger(attempt) || Math.abs(attempt) >= 1e21) return false;
  const n = String(attempt);
  let i = at;
  for (let k = 0; k < 8; k++) if (!isDigit(text.charCodeAt(i++))) return false;
  if (text.charCodeAt(i++) !== 84) return false; // T
  for (let k = 0; k < 6; k++) if (!isDigit(text.charCodeAt(i++))) return false;
  const fraction = i;
  while (isDigit(text.charCodeAt(i))) i++;
  if (i - fraction > 9 || text.charCodeAt(i++) !== 90) return false; // Z
  if (text.charCodeAt(i++) !== 45 || !text.startsWith(event, i)) return false;
  i += event.length;
  if (text.charCodeAt(i++) !== 45 || !text.startsWith(task, i)) return false;
  i += task.length;
  if (text.charCodeAt(i++) !== 45 || text.charCodeAt(i++) !== 97 || !text.startsWith(n, i)) return false;
  i += n.length;
  if (text.charCodeAt(i++) !== 45) return false;
  const token = i;
  while (isAlnum(text.charCodeAt(i))) i++;
  return i - token >= 4 && i - token <= 32 && i + 5 === text.length && text.endsWith('.json');
}

export function parseApprovalFileName(
  name: string,
): { time: string; stage: string; token: string } | undefined {
  const m = APPROVAL_NAME_RE.exec(name);
  return m ? { time: m[1]!, stage: m[2]!, token: m[3]! } : undefined;
}

/** A clock with microseconds: Date has milliseconds, so the last three digits come from the monotonic clock. */
export interface Clock {
  now(): Date;
  micros(): number;
}

export const systemClock: Clock = {
  now: () => new Date(),
  micros: () => Number(process.hrtime.bigint() / 1000n) % 1000,
};

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `20261028T131016577943Z`: the run-id timestamp style, also used at the head of event and approval names. */
export function compactTime(d: Date, micros: number): string {
  return (
    `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T` +
    `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}` +
    `${pad(d.getUTCMilliseconds(), 3)}${pad(micros, 3)}Z`
  );
}

/** `2026-10-28T13:10:16Z`: RFC 3339 UTC with seconds precision, as the helper writes `at` and `created_at`. */
export function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.[0-9]{3}Z$/, 'Z');
}

/** 6 lowercase hex digits. */
export function token(): string {
  return randomBytes(3).toString('hex');
}

export function newRunId(clock: Clock = systemClock): string {
  return `${compactTime(clock.now(), clock.micros())}-${token()}`;
}

export function eventFileName(
  time: string,
  event: EventFileName['event'],
  task: string,
  attempt: number,
): string {
  return `${time}-${event}-${task}-a${attempt}-${token()}.json`;
}

export function approvalFileName(time: string, stage: string): string {
  return `${time}-${stage}-${token()}.json`;
}

/** `basename(path)`, without its normalization for the usual POSIX path (no trailing separator). */
export function fileNameOf(path: string): string {
  if (sep !== '/' || path.endsWith('/')) return basename(path);
  return path.slice(path.lastIndexOf('/') + 1);
}
