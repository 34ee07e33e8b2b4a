import { hostname } from 'node:os';
import { join } from 'node:path';
import { CkptError } from '../errors.js';
import { type FileSystem, nodeFileSystem } from './file-system.js';

export interface LockDirOptions {
  readonly fs?: FileSystem;
  /** A lock older than this is stale and may be taken over (the ulpi original: 5 s). */
  readonly staleMs?: number;
  /** How long to keep trying before giving up (the ulpi original: about 8 s). */
  readonly timeoutMs?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => void;
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Takes a lock directory (`mkdir <file>.lock`, as the ulpi original does), runs `fn`, and removes the lock.
 * A stale lock is taken over by renaming it away first (rmdir + mkdir would let two takers both win), then
 * creating a fresh one. Records the holder (pid, host) inside for diagnostics.
 */
export function withLockDir<T>(lockPath: string, fn: () => T, opts: LockDirOptions = {}): T {
  const fs = opts.fs ?? nodeFileSystem;
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? sleepSync;
  const staleMs = opts.staleMs ?? 5000;
  const deadline = now() + (opts.timeoutMs ?? 8000);
  for (let attempt = 0; ; attempt++) {
    try {
      fs.mkdirSync(lockPath);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    try {
      const age = now() - fs.statSync(lockPath).mtimeMs;
      if (age > staleMs) {
        const away = `${lockPath}.stale-${process.pid}-${attempt}`;
        fs.renameSync(lockPath, away);
        removeDir(fs, away);
        continue;
      }
    } catch {
      // The lock vanished or was taken over between our calls: try again.
      continue;
    }
    if (now() > deadline)
      throw new CkptError('LOCK_TIMEOUT', `could not take the lock ${lockPath}: another writer holds it`);
    sleep(25 + Math.floor(Math.random() * 50));
  }
  try {
    try {
      const fd = fs.openSync(join(lockPath, 'owner'), 'w');
      fs.writeSync(fd, new TextEncoder().encode(`${process.pid}@${hostname()}\n`));
      fs.closeSync(fd);
    } catch {
      // The owner note is diagnostics only.
    }
    return fn();
  } finally {
    removeDir(fs, lockPath);
  }
}

function removeDir(fs: FileSystem, dir: string): void {
  try {
    for (const name of fs.readdirSync(dir)) fs.unlinkSync(join(dir, name));
    fs.rmdirSync(dir);
  } catch {
    // Already removed by a taker of a stale lock.
  }
}
