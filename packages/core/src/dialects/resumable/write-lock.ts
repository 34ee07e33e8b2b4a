import { basename, join } from 'node:path';
import { CkptError } from '../../errors.js';
import { tempPathFor, writeOnce } from '../../fs/atomic.js';
import { parseEnv, serializeEnv } from '../../parse/env.js';
import { RUN_FILES } from './load.js';
import { describeHolder } from './lock.js';
import {
  appendLogLine,
  ctxOf,
  ownsLock,
  type ResumableWriteOptions,
  readLock,
  underMutex,
  writerLockPath,
} from './write-common.js';

export interface LockOptions extends ResumableWriteOptions {
  /** Take over a lock whose liveness cannot be checked (held on another host, or unreadable). */
  readonly steal?: boolean;
}

export type LockOutcome = 'acquired' | 'already-held' | 'replaced-stale';

function runIdOf(c: ReturnType<typeof ctxOf>, root: string): string {
  try {
    const values = parseEnv(
      new TextDecoder().decode(c.fs.readFileSync(join(root, RUN_FILES.state))),
      '',
    ).values;
    if (values.RUN_ID) return values.RUN_ID;
  } catch {
    // No readable state: fall back to the folder name's run id.
  }
  return basename(root).slice(-16);
}

/**
 * Takes the run's single-writer lock for `opts.pid`. An active lock refuses (LOCK_HELD, exit 2); a stale one (its
 * process is gone) is appended to run.log and replaced; a lock held on another host or an unreadable one refuses
 * unless `steal`. The new lock is published with link (never a rename onto the name), under the write mutex.
 */
export function acquireResumableLock(root: string, opts: LockOptions = {}): LockOutcome {
  const c = ctxOf(opts);
  return underMutex(root, opts, () => {
    const path = writerLockPath(c, root);
    const current = readLock(c, root, path);
    let outcome: LockOutcome = 'acquired';
    if (current) {
      const s = current.state;
      if (ownsLock(c, s)) return 'already-held';
      if (s.state === 'active')
        throw new CkptError('LOCK_HELD', `run is locked by live process ${describeHolder(s.holder)}: stop`);
      if ((s.state === 'foreign' || s.state === 'unreadable') && !opts.steal)
        throw new CkptError(
          'LOCK_HELD',
          s.state === 'foreign'
            ? `run is locked on another host (${describeHolder(s.holder)}); its liveness cannot be checked here: stop, or pass --steal once the holder is gone`
            : `${basename(path)} is unreadable: stop, or pass --steal to replace it`,
        );
      const contents = current.text
        .split('\n')
        .filter((l) => l.trim() !== '')
        .join(' ');
      appendLogLine(c, root, `stale lock replaced (${s.state}): ${contents}`);
      // Move the old lock away before publishing ours: link fails on an existing name, so it must be gone.
      const away = tempPathFor(path);
      c.fs.renameSync(path, away);
      c.fs.unlinkSync(away);
      outcome = 'replaced-stale';
    }
    const body = serializeEnv({
      pid: String(c.pid),
      host: c.probe.host,
      user: c.user,
      run_id: runIdOf(c, root),
      acquired_at_utc: c
        .now()
        .toISOString()
        .replace(/\.[0-9]+Z$/, 'Z'),
    });
    if (!writeOnce(path, body, { fs: c.fs }))
      throw new CkptError('LOCK_HELD', `another writer created ${basename(path)} at the same moment: stop`);
    appendLogLine(c, root, `lock acquired pid=${c.pid} host=${c.probe.host} user=${c.user}`);
    return outcome;
  });
}

export interface UnlockOptions extends ResumableWriteOptions {
  /** Remove a lock this process does not hold (a stale one, or one on another host). */
  readonly force?: boolean;
}

/** Removes the run's lock when `opts.pid` holds it (or it is stale, or `force`). No lock: nothing to do. */
export function releaseResumableLock(root: string, opts: UnlockOptions = {}): 'released' | 'none' {
  const c = ctxOf(opts);
  return underMutex(root, opts, () => {
    const current = readLock(c, root);
    if (!current) return 'none';
    const s = current.state;
    if (!ownsLock(c, s) && !opts.force) {
      if (s.state === 'active')
        throw new CkptError(
          'LOCK_HELD',
          `run is locked by live process ${describeHolder(s.holder)}: not yours to remove`,
        );
      if (s.state !== 'stale')
        throw new CkptError(
          'REFUSED',
          `the lock is not held by pid ${c.pid} on this host; pass --force to remove it`,
        );
    }
    c.fs.unlinkSync(current.path);
    appendLogLine(c, root, `lock released pid=${'holder' in s && s.holder ? s.holder.pid : '?'}`);
    return 'released';
  });
}
