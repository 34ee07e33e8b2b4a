import { userInfo } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { CkptError } from '../../errors.js';
import { appendDurable } from '../../fs/atomic.js';
import { type FileSystem, nodeFileSystem } from '../../fs/file-system.js';
import { type LockDirOptions, withLockDir } from '../../fs/lock-dir.js';
import { parseEnv } from '../../parse/env.js';
import { declaredLockPath, lockPathOf, RUN_FILES } from './load.js';
import {
  classifyLock,
  describeHolder,
  type LockProbe,
  type LockState,
  parseLockText,
  systemProbe,
} from './lock.js';
import { formatLogLine } from './run-log.js';

/** Options every resumable writer takes. */
export interface ResumableWriteOptions {
  /** The file system (tests inject faults). */
  readonly fs?: FileSystem;
  readonly now?: () => Date;
  readonly probe?: LockProbe;
  /** The process this writer acts for: the lock holder (the CLI uses its parent, the calling shell). */
  readonly pid?: number;
  readonly user?: string;
  /** The short mutex that serialises writers of one run root (a `.ckpt-write.lock` directory). */
  readonly mutex?: LockDirOptions;
}

export interface Ctx {
  readonly fs: FileSystem;
  readonly now: () => Date;
  readonly probe: LockProbe;
  readonly pid: number;
  readonly user: string;
}

export function ctxOf(opts: ResumableWriteOptions): Ctx {
  let user = opts.user;
  if (user === undefined) {
    try {
      user = userInfo().username;
    } catch {
      user = process.env.USER ?? 'unknown';
    }
  }
  return {
    fs: opts.fs ?? nodeFileSystem,
    now: opts.now ?? (() => new Date()),
    probe: opts.probe ?? systemProbe,
    pid: opts.pid ?? process.pid,
    user: user || 'unknown',
  };
}

/** Runs `fn` holding the run root's write mutex, so read-modify-write cycles of two writers never interleave. */
export function underMutex<T>(root: string, opts: ResumableWriteOptions, fn: () => T): T {
  const fs = opts.fs ?? nodeFileSystem;
  return withLockDir(join(root, '.ckpt-write.lock'), fn, { fs, ...opts.mutex });
}

/**
 * The lock file writers use, the one readers look at: an existing lock (the file LOCK_FILE names inside the run
 * root, else run.lock, lock, .lock or state.lock), else LOCK_FILE's path when its folder exists, else run.lock.
 */
export function writerLockPath(c: Ctx, root: string): string {
  let state: Record<string, string> | undefined;
  try {
    state = parseEnv(new TextDecoder().decode(c.fs.readFileSync(join(root, RUN_FILES.state))), '').values;
  } catch {
    state = undefined;
  }
  const fileExists = (p: string) => {
    try {
      return c.fs.existsSync(p) && !c.fs.statSync(p).isDirectory();
    } catch {
      return false;
    }
  };
  const declared = declaredLockPath(root, state);
  return (
    lockPathOf(root, state, fileExists) ??
    (declared && c.fs.existsSync(dirname(declared)) ? declared : join(root, RUN_FILES.lock))
  );
}

/** Reads the lock file as a writer sees it: absent, or its path, raw text and state. */
export function readLock(
  c: Ctx,
  root: string,
  path = writerLockPath(c, root),
): { path: string; text: string; state: LockState } | undefined {
  if (!c.fs.existsSync(path)) return undefined;
  let text: string;
  try {
    text = new TextDecoder().decode(c.fs.readFileSync(path));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const parsed = parseLockText(text);
  return { path, text, state: classifyLock(parsed.values, parsed.ok, c.probe) };
}

export function ownsLock(c: Ctx, s: LockState): boolean {
  return (
    (s.state === 'active' || s.state === 'stale') &&
    s.holder.pid === String(c.pid) &&
    s.holder.host === c.probe.host
  );
}

/** Single-writer discipline: refuses when another live process (or one on another host) holds the lock. */
export function assertMayWrite(c: Ctx, root: string): void {
  const lock = readLock(c, root);
  if (!lock || ownsLock(c, lock.state)) return;
  const s = lock.state;
  if (s.state === 'active')
    throw new CkptError('LOCK_HELD', `run is locked by live process ${describeHolder(s.holder)}: stop`);
  if (s.state === 'foreign')
    throw new CkptError(
      'LOCK_HELD',
      `run is locked on another host (${describeHolder(s.holder)}): stop, or take it over with \`ckpt resumable lock --steal\` once the holder is gone`,
    );
  if (s.state === 'unreadable')
    throw new CkptError(
      'LOCK_HELD',
      `${basename(lock.path)} is unreadable: stop, or take it over with \`ckpt resumable lock --steal\``,
    );
}

/**
 * Appends one `[time] message` line to run.log, fsynced. A torn last line (a crash mid-append) is ended first, so
 * the new line never joins it.
 */
export function appendLogLine(c: Ctx, root: string, message: string): void {
  const path = join(root, RUN_FILES.log);
  let prefix = '';
  if (c.fs.existsSync(path)) {
    const bytes = c.fs.readFileSync(path);
    if (bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a) prefix = '\n';
  }
  appendDurable(path, prefix + formatLogLine(c.now(), message), { fs: c.fs, mode: 0o644 });
}
