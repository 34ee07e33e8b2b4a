import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CrashError, faultyFileSystem, fcParams, tmpTree } from '@ckpt/test-utils';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { validatePaths } from '../../check/validate-files.js';
import { type CkptError, WriteError } from '../../errors.js';
import { type FileSystem, nodeFileSystem } from '../../fs/file-system.js';
import { applyUlpiTransition, hashUlpiDoc, replayUlpiEventLog } from './event-log.js';
import { eventLogPathFor } from './event-log-io.js';
import { readUlpiDoc } from './store.js';
import { addUlpiItems, initUlpiRun, setUlpiPhase, setUlpiUnit } from './write.js';
import { finalizeUlpiRun } from './write-run.js';

// One command's change is one transaction of the event log: it lands whole or not at all, and the error says so.

let trees: { cleanup(): void }[] = [];
afterEach(() => {
  for (const t of trees) t.cleanup();
  trees = [];
});
const now = () => Date.UTC(2026, 10, 29, 7, 13, 0);
const later = () => Date.UTC(2026, 10, 29, 8, 0, 0);

function loggedRun(): string {
  const t = tmpTree();
  trees.push(t);
  const f = t.path('.ulpi/runs/r.json');
  initUlpiRun(f, { task: 't', units: ['a', 'b'], eventLog: true }, { now });
  return f;
}
const logOf = (f: string) => readFileSync(eventLogPathFor(f), 'utf8');
const replayed = (f: string) => {
  const r = replayUlpiEventLog(logOf(f));
  if (!r.ok) throw new Error(r.error.message);
  return JSON.stringify(r.doc);
};

/**
 * A disk that fills up: writes to files whose name ends with `suffix` land only `room` more bytes (a short write),
 * then fail with `errno`, as write(2) does on a full file system, a quota or a file size limit.
 */
function fullDisk(base: FileSystem, suffix: string, room: number, errno = 'ENOSPC'): FileSystem {
  const fds = new Set<number>();
  let left = room;
  return {
    ...base,
    openSync(p, flags, mode) {
      const fd = base.openSync(p, flags, mode);
      if (p.endsWith(suffix)) fds.add(fd);
      return fd;
    },
    closeSync(fd) {
      fds.delete(fd);
      base.closeSync(fd);
    },
    writeSync(fd, data) {
      if (!fds.has(fd) || data.length <= left) {
        if (fds.has(fd)) left -= data.length;
        return base.writeSync(fd, data);
      }
      if (left > 0) {
        const n = base.writeSync(fd, data.subarray(0, left));
        left -= n;
        return n;
      }
      throw Object.assign(new Error(`${errno}: injected, write`), { code: errno });
    },
  };
}

const verbs = {
  done: (f: string, fs: FileSystem) => setUlpiUnit(f, 'a', 'done', { note: 'shipped' }, { fs, now }),
  phase: (f: string, fs: FileSystem) => setUlpiPhase(f, 'build', 'running', { fs, now }),
  item: (f: string, fs: FileSystem) => addUlpiItems(f, [{ kind: 'flake' }, { kind: 'todo' }], { fs, now }),
  finalize: (f: string, fs: FileSystem) => finalizeUlpiRun(f, 'aborted', { result: 'x' }, { fs, now }),
};

/** The documents before and after a verb, from a twin of the run. */
function beforeAfter(f: string, verb: keyof typeof verbs): [string, string] {
  const twin = tmpTree({ 'r.json': readFileSync(f), 'r.events.jsonl': logOf(f) });
  trees.push(twin);
  verbs[verb](twin.path('r.json'), nodeFileSystem);
  return [JSON.stringify(readUlpiDoc(f)), JSON.stringify(readUlpiDoc(twin.path('r.json')))];
}

describe('ulpi event-log transactions', () => {
  it('should mark a transaction of several lines with tx {i, n} and keep a one-line change unmarked', () => {
    const f = loggedRun();
    const start = logOf(f).length;
    setUlpiUnit(f, 'a', 'done', {}, { now });
    const lines = logOf(f)
      .slice(start)
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.map((l) => l.tx)).toEqual(lines.map((_, i) => ({ i: i + 1, n: lines.length })));
    const one = logOf(f).length;
    finalizeUlpiRun(f, 'aborted', {}, { now });
    const single = logOf(f).slice(one).trimEnd().split('\n');
    expect(single.every((l) => JSON.parse(l).tx === undefined || JSON.parse(l).tx.n > 1)).toBe(true);
  });

  it('should, on a short write at every byte of `unit a done`, roll the log back, keep the snapshot and throw exit 4', () => {
    const f = loggedRun();
    const [before] = beforeAfter(f, 'done');
    const log0 = logOf(f);
    const snap0 = readFileSync(f, 'utf8');
    const twin = tmpTree({ 'r.json': snap0, 'r.events.jsonl': log0 });
    trees.push(twin);
    verbs.done(twin.path('r.json'), nodeFileSystem);
    const txBytes =
      Buffer.byteLength(readFileSync(twin.path('r.events.jsonl'), 'utf8')) - Buffer.byteLength(log0);
    for (let room = 0; room < txBytes; room += 7) {
      let err: unknown;
      try {
        verbs.done(f, fullDisk(nodeFileSystem, '.events.jsonl', room));
      } catch (e) {
        err = e;
      }
      expect(err, `room ${room}`).toBeInstanceOf(WriteError);
      expect((err as CkptError).exitCode).toBe(4);
      expect((err as Error).message).toMatch(
        /could not write .*r\.events\.jsonl: no space left on the device \(nothing was changed/,
      );
      expect(logOf(f)).toBe(log0);
      expect(readFileSync(f, 'utf8')).toBe(snap0);
      expect(replayed(f)).toBe(before);
    }
  });

  it('should roll the logged transaction back when the snapshot cannot be written (EDQUOT, EROFS, EACCES)', () => {
    for (const errno of ['EDQUOT', 'EROFS', 'EACCES']) {
      const f = loggedRun();
      const [before] = beforeAfter(f, 'item');
      const log0 = logOf(f);
      // The first open of a temp file beside the snapshot fails.
      const fs: FileSystem = {
        ...nodeFileSystem,
        openSync(p, flags, mode) {
          if (p.includes('.ckpt-tmp-')) throw Object.assign(new Error(`${errno}: injected`), { code: errno });
          return nodeFileSystem.openSync(p, flags, mode);
        },
      };
      let err: unknown;
      try {
        verbs.item(f, fs);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(WriteError);
      expect((err as WriteError).errno).toBe(errno);
      expect((err as Error).message).toMatch(/could not write .*r\.json: .* \(nothing was changed/);
      expect(logOf(f)).toBe(log0);
      expect(replayed(f)).toBe(before);
    }
  });

  it('should ignore a torn transaction at the end of the log on replay, and cut it off before the next append', () => {
    const f = loggedRun();
    const log0 = logOf(f);
    const before = replayed(f);
    setUlpiUnit(f, 'a', 'done', { note: 'n' }, { now: later });
    const tx = logOf(f).slice(log0.length).trimEnd().split('\n');
    expect(tx.length).toBe(5);
    // What a crash inside the append (or a tool that stopped mid-way) leaves: 2 of the lines, then a fragment.
    writeFileSync(eventLogPathFor(f), `${log0}${tx[0]}\n${tx[1]}\n${tx[2]!.slice(0, 20)}`);
    writeFileSync(f, `${JSON.stringify(JSON.parse(before), null, 2)}\n`);
    const r = replayUlpiEventLog(logOf(f));
    expect(r.ok && JSON.stringify(r.doc)).toBe(before);
    expect(r.ok && r.tornTransaction).toEqual({
      line: log0.trimEnd().split('\n').length + 1,
      landed: 2,
      of: tx.length,
    });
    expect(r.ok && r.completeBytes).toBe(Buffer.byteLength(log0));
    // validate names it (a warning at the transaction's first line), and no error: the snapshot is in step.
    const findings = validatePaths(['.'], { cwd: join(f, '../../..') }).files.flatMap((x) => x.findings);
    expect(findings.filter((x) => x.severity === 'error')).toEqual([]);
    expect(findings.map((x) => x.code)).toContain('ulpi/event-log-torn-transaction');
    setUlpiUnit(f, 'b', 'in_progress', {}, { now });
    expect(logOf(f).startsWith(log0)).toBe(true);
    expect(logOf(f)).not.toContain(tx[1]!);
    const doc = JSON.parse(replayed(f));
    expect(doc.units.a.status).toBe('pending');
    expect(doc.units.b.status).toBe('in_progress');
  });

  it('should replay a torn transaction in the middle as its lines say (a tool that ignores tx appended after it)', () => {
    const f = loggedRun();
    const log0 = logOf(f);
    setUlpiUnit(f, 'a', 'done', { note: 'n' }, { now: later });
    const tx = logOf(f).slice(log0.length).trimEnd().split('\n');
    const partial = `${log0}${tx[0]}\n${tx[1]}\n`;
    const r1 = replayUlpiEventLog(partial);
    expect(r1.ok && r1.tornTransaction).toMatchObject({ landed: 2, of: 5 });
    // The original replays lines 1 and 2, then appends its own line, chained to that state.
    const mid = JSON.parse(readFileSync(eventLogPathFor(f), 'utf8').split('\n')[0]!).doc;
    for (const l of [tx[0]!, tx[1]!]) applyUlpiTransition(mid, JSON.parse(l));
    const beforeHash = hashUlpiDoc(mid);
    mid.x = 1;
    const extra = JSON.stringify({
      v: 1,
      op: 'set',
      path: ['x'],
      value: 1,
      beforeHash,
      afterHash: hashUlpiDoc(mid),
    });
    const r2 = replayUlpiEventLog(`${partial}${extra}\n`);
    expect(r2.ok && r2.tornTransaction).toBeUndefined();
    expect(r2.ok && JSON.stringify(r2.doc)).toBe(JSON.stringify(mid));
  });

  it('should leave a log that replays to the old or the new state for any injected failure, with a truthful result', () => {
    const errnos = ['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EIO', 'EFBIG'] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(verbs) as (keyof typeof verbs)[])),
        fc.oneof(
          fc.record({
            kind: fc.constant('error' as const),
            at: fc.integer({ min: 1, max: 30 }),
            errno: fc.constantFrom(...errnos),
          }),
          fc.record({ kind: fc.constant('crash' as const), at: fc.integer({ min: 1, max: 30 }) }),
          fc.record({
            kind: fc.constant('short' as const),
            room: fc.integer({ min: 0, max: 2000 }),
            errno: fc.constantFrom(...errnos),
          }),
        ),
        (verb, fault) => {
          const f = loggedRun();
          setUlpiUnit(f, 'b', 'in_progress', {}, { now });
          const [before, after] = beforeAfter(f, verb);
          const fs =
            fault.kind === 'short'
              ? fullDisk(nodeFileSystem, '.events.jsonl', fault.room, fault.errno)
              : faultyFileSystem(nodeFileSystem, {
                  failAt: fault.at,
                  mode: fault.kind,
                  ...(fault.kind === 'error' ? { errno: fault.errno } : {}),
                });
          let outcome: 'ok' | 'write-error' | 'crash' = 'ok';
          try {
            verbs[verb](f, fs);
          } catch (e) {
            if (e instanceof CrashError) outcome = 'crash';
            else if (e instanceof WriteError) outcome = 'write-error';
            else throw e;
          }
          // A crashed writer's lock (or one whose release failed) goes stale after 5 s: remove it as time would.
          try {
            nodeFileSystem.rmdirSync(`${f}.lock`);
          } catch {}
          const state = replayed(f);
          expect([before, after]).toContain(state);
          // The exit code tells the truth: 0 means it landed, 4 means it did not (one fault: the rollback works).
          if (outcome === 'ok') expect(state).toBe(after);
          if (outcome === 'write-error') {
            expect(state).toBe(before);
            expect(JSON.stringify(readUlpiDoc(f))).toBe(before);
          }
          // And the run stays writable: the next change lands on top of what replay shows.
          setUlpiUnit(f, 'b', 'blocked', {}, { now });
          const next = JSON.parse(replayed(f));
          expect(next.units.b.status).toBe('blocked');
          expect(JSON.stringify(readUlpiDoc(f))).toBe(JSON.stringify(next));
        },
      ),
      fcParams(60),
    );
  });
});
