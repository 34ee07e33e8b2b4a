import { asWriteError } from '../../errors.js';
import { type FileSystem, nodeFileSystem } from '../../fs/file-system.js';
import { ulpiUsage } from './errors.js';

export interface UlpiLockOptions {
  readonly fs?: FileSystem;
  /** A lock older than this is stale (the original: 5 s). */
  readonly staleMs?: number;
  /** How long to keep trying (the original: about 8 s, longer than the stale age). */
  readonly timeoutMs?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => void;
}

const sleepSync = (ms: number) => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

/**
 * The original's lock protocol, so ckpt and `checkpoint.mjs` can share a run: `mkdir <file>.lock` (empty, so
 * either tool can `rmdir` it); a lock older than 5 s is stolen by an atomic rename to a tomb (one winner), never
 * by rmdir + mkdir; a missing or unwritable directory fails at once instead of spinning.
 */
export function withUlpiLock<T>(file: string, fn: () => T, opts: UlpiLockOptions = {}): T {
  const fs = opts.fs ?? nodeFileSystem;
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? sleepSync;
  const staleMs = opts.staleMs ?? 5000;
  const deadline = now() + (opts.timeoutMs ?? 8000);
  const lock = `${file}.lock`;
  for (let i = 0; ; i++) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT')
        throw ulpiUsage(`parent directory of ${file} does not exist — init creates it; check the path`);
      // An unwritable, read-only or full directory: a write failure (exit 4) naming the lock, at once.
      if (code !== 'EEXIST') throw asWriteError(e, lock);
    }
    try {
      if (now() - fs.statSync(lock).mtimeMs > staleMs) {
        const tomb = `${lock}.dead.${process.pid}.${i}`;
        fs.renameSync(lock, tomb);
        try {
          fs.rmdirSync(tomb);
        } catch {
          // A tomb that cannot be removed is harmless: nothing reads it.
        }
        continue;
      }
    } catch {
      // Lost the steal race, or the holder released it meanwhile: try again.
    }
    if (now() > deadline) throw ulpiUsage(`could not acquire lock on ${file} (stuck ${lock}?)`);
    sleep(10);
  }
  try {
    return fn();
  } finally {
    try {
      fs.rmdirSync(lock);
    } catch {
      // Already stolen as stale by another writer; nothing to release.
    }
  }
}
