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

/**
 * True when `name` is an event file name whose event, task and attempt (parseEventFileName's fields) are these:
 * what comparing them with parseEventFileName's answer says, without its match array and strings (the rules ask
 * it of every event file, and nearly every name agrees with its body). An attempt of more than 15 digits is
 * left to that parse (false). The time holds no `-`, so the event
 * follows the first one; the task is then the body's exactly when `-a<attempt>-` follows it up to the last `-`
 * (the token holds none): no longer task could end at a `-a` inside the attempt's digits.
 */
export function eventFileNameIs(name: string, event: string, task: string, attempt: number): boolean {
  if (event !== 'task_started' && event !== 'task_finished') return false;
  if (task === '' || !EVENT_NAME_RE.test(name)) return false;
  const e = name.indexOf('-') + 1;
  const t = e + event.length + 1;
  if (!name.startsWith(event, e) || !name.startsWith(task, t) || !name.startsWith('-a', t + task.length))
    return false;
  const last = name.lastIndexOf('-');
  let i = t + task.length + 2;
  const negative = name.charCodeAt(i) === 45;
  if (negative) i++;
  // Up to 15 digits: read exactly as Number() reads them.
  if (last - i < 1 || last - i > 15) return false;
  let n = 0;
  for (; i < last; i++) {
    const d = name.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    n = n * 10 + d;
  }
  return (negative ? -n : n) === attempt;
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
