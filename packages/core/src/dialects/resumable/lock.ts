import { parseEnv } from '../../parse/env.js';
import { hostname } from '../../util/os.js';
import type { EnvValues } from './stages.js';

/** Who holds a run's lock, as the lock file says. */
export interface LockHolder {
  readonly pid: string;
  readonly host: string;
  readonly user: string;
  readonly runId: string;
  readonly acquiredAt: string;
}

/**
 * The state of a run's lock: none; active (a live process on this host); stale (its process is gone); foreign
 * (held on another host, so liveness cannot be checked here); unreadable (unparsable or without pid/host).
 */
export type LockState =
  | { readonly state: 'none' }
  | { readonly state: 'active' | 'stale' | 'foreign'; readonly holder: LockHolder }
  | { readonly state: 'unreadable'; readonly holder?: LockHolder };

/** Tells whether a process is alive. Injected so the rules stay pure and tests can fake it. */
export interface LockProbe {
  readonly host: string;
  isAlive(pid: number): boolean;
}

let host: string | undefined;

/**
 * The real probe: signal 0 checks existence; EPERM means it exists but belongs to someone else. The host name is
 * asked once, on first use (not at module load: the CLI's validate bundle holds this module).
 */
export const systemProbe: LockProbe = {
  get host() {
    host ??= hostname();
    return host;
  },
  isAlive(pid) {
    if (!Number.isInteger(pid) || pid <= 0) return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
};

/** The keys a lock's metadata is read from (any case), preferred first: the skill names the metadata, not the keys. */
export const LOCK_FIELD_KEYS = {
  pid: ['pid'],
  host: ['host', 'hostname'],
  user: ['user'],
  runId: ['run_id'],
  acquiredAt: [
    'acquired_at_utc',
    'acquired_at',
    'timestamp',
    'ts',
    'time',
    'started_at',
    'created_at',
    'locked_at',
  ],
} as const satisfies Record<keyof LockHolder, readonly string[]>;

/** The key a lock field is read from (its first spelling present, in lower or upper case), if any. */
export function lockKeyOf(values: EnvValues, field: keyof LockHolder): string | undefined {
  for (const k of LOCK_FIELD_KEYS[field])
    for (const spelled of [k, k.toUpperCase()]) if (values[spelled] !== undefined) return spelled;
  return undefined;
}

export function holderOf(values: EnvValues): LockHolder {
  const get = (field: keyof LockHolder) => {
    const key = lockKeyOf(values, field);
    return key === undefined ? '' : values[key]!;
  };
  return {
    pid: get('pid'),
    host: get('host'),
    user: get('user'),
    runId: get('runId'),
    acquiredAt: get('acquiredAt'),
  };
}

/** Classifies a lock file's values (undefined: no lock file; `usable` false: it did not parse). */
export function classifyLock(values: EnvValues | undefined, usable: boolean, probe: LockProbe): LockState {
  if (values === undefined) return { state: 'none' };
  const holder = holderOf(values);
  if (!usable || !/^[0-9]+$/.test(holder.pid) || holder.host === '') return { state: 'unreadable', holder };
  if (holder.host !== probe.host) return { state: 'foreign', holder };
  return { state: probe.isAlive(Number(holder.pid)) ? 'active' : 'stale', holder };
}

/**
 * A lock file's values: key=value lines, or a flat JSON object (a lock written by a script in another language).
 * `ok` is false when neither reads.
 */
export function parseLockText(text: string): { values: Record<string, string>; ok: boolean } {
  if (/^\s*\{/.test(text)) {
    try {
      const v: unknown = JSON.parse(text);
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        const values: Record<string, string> = Object.create(null);
        for (const [k, x] of Object.entries(v))
          if (x !== null && typeof x !== 'object') values[k] = String(x);
        return { values, ok: true };
      }
    } catch {
      // Not JSON: read it as key=value lines below.
    }
  }
  const parsed = parseEnv(text, '');
  return { values: parsed.values, ok: parsed.ok };
}

/** `pid=… host=… user=… run_id=… acquired_at_utc=…`, one line (as the lock's contents go to run.log). */
export function describeHolder(h: LockHolder): string {
  return `pid=${h.pid} host=${h.host} user=${h.user} run_id=${h.runId} acquired_at_utc=${h.acquiredAt}`;
}
