import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { CrashError, faultyFileSystem, fcParams, tmpTree } from '@ckpt/test-utils';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFileSystem } from '../../fs/file-system.js';
import { hashUlpiDoc, replayUlpiEventLog } from './event-log.js';
import { eventLogPathFor, rebuildUlpiSnapshot } from './event-log-io.js';
import { readUlpiDoc } from './store.js';
import { addUlpiItems, initUlpiRun, setUlpiPhase, setUlpiUnit } from './write.js';

let trees: { cleanup(): void }[] = [];
afterEach(() => {
  for (const t of trees) t.cleanup();
  trees = [];
});
const now = () => Date.UTC(2026, 10, 29, 7, 13, 0);

function loggedRun(): string {
  const t = tmpTree();
  trees.push(t);
  const f = t.path('.ulpi/runs/r.json');
  initUlpiRun(f, { task: 't', units: ['a', 'b'], eventLog: true }, { now });
  return f;
}
const logOf = (f: string) => readFileSync(eventLogPathFor(f), 'utf8');

describe('event log', () => {
  it('should log every change so that replay equals the snapshot', () => {
    const f = loggedRun();
    setUlpiUnit(f, 'a', 'done', { note: 'n' });
    setUlpiPhase(f, 'build', 'running');
    addUlpiItems(f, { kind: 'flake' });
    const r = replayUlpiEventLog(logOf(f));
    expect(r.ok && r.doc).toEqual(readUlpiDoc(f));
    expect(r.ok && r.hash).toBe(hashUlpiDoc(readUlpiDoc(f)));
    expect(logOf(f).split('\n')[0]).toMatch(/^\{"v":1,"op":"init","doc":\{/);
  });

  it('should discard only a torn tail, and truncate it before the next append', () => {
    const f = loggedRun();
    setUlpiUnit(f, 'a', 'in_progress');
    const good = logOf(f);
    writeFileSync(eventLogPathFor(f), `${good}{"v":1,"op":"set","pa`);
    const r = replayUlpiEventLog(logOf(f));
    expect(r.ok && r.tornTail).toBe('{"v":1,"op":"set","pa');
    setUlpiUnit(f, 'b', 'done');
    expect(logOf(f).startsWith(good)).toBe(true);
    expect(logOf(f)).not.toContain('"pa{');
    expect(replayUlpiEventLog(logOf(f)).ok).toBe(true);
  });

  it('should fail closed on a corrupt middle line, a broken chain, a missing or a repeated init', () => {
    const f = loggedRun();
    setUlpiUnit(f, 'a', 'in_progress');
    setUlpiUnit(f, 'a', 'done');
    const lines = logOf(f).trimEnd().split('\n');
    const bad = (ls: string[]) => replayUlpiEventLog(`${ls.join('\n')}\n`);
    const corrupt = bad([lines[0]!, '{"v":1,"op":', ...lines.slice(1)]);
    expect(!corrupt.ok && corrupt.error.code).toBe('parse/invalid-jsonl-line');
    const chain = bad([lines[0]!, ...lines.slice(2)]);
    expect(!chain.ok && chain.error).toMatchObject({ code: 'ulpi/event-log-chain', line: 2 });
    expect(!bad(lines.slice(1)).ok && (bad(lines.slice(1)) as { error: { code: string } }).error.code).toBe(
      'ulpi/event-log-missing-init',
    );
    const again = bad([...lines, lines[0]!]);
    expect(!again.ok && again.error.code).toBe('ulpi/event-log-repeated-init');
    writeFileSync(eventLogPathFor(f), `${[lines[0]!, ...lines.slice(2)].join('\n')}\n`);
    const before = readFileSync(f);
    expect(() => setUlpiUnit(f, 'b', 'done')).toThrow(/fails closed/);
    expect(readFileSync(f).equals(before)).toBe(true);
  });

  it('should rebuild a snapshot that is behind the log (the log wins)', () => {
    const f = loggedRun();
    const old = readFileSync(f);
    setUlpiUnit(f, 'a', 'done');
    const current = readFileSync(f);
    writeFileSync(f, old);
    rebuildUlpiSnapshot(f);
    expect(readFileSync(f).equals(current)).toBe(true);
  });

  it('should refuse to replay the old run over a snapshot re-initialised without the log, byte-identical', () => {
    const f = loggedRun();
    setUlpiUnit(f, 'a', 'done', {}, { now });
    const log = logOf(f);
    // What the original checkpoint.mjs leaves after `init` over a finished run: a new document, the old log beside.
    const reinit = `${JSON.stringify({ ...readUlpiDoc(f), createdAt: '2026-11-30T09:00:00Z', units: {} }, null, 2)}\n`;
    writeFileSync(f, reinit);
    for (const write of [() => setUlpiUnit(f, 'b', 'done'), () => rebuildUlpiSnapshot(f)]) {
      expect(write).toThrow(/is a different run than its event log .* refusing to replay the log over it/);
      expect([readFileSync(f, 'utf8'), logOf(f)]).toEqual([reinit, log]);
    }
    rebuildUlpiSnapshot(f, { force: true });
    expect(readUlpiDoc(f).createdAt).toBe('2026-11-29T07:13:00Z');
  });

  it('should not bring back a deleted run from its log on the next write, only on an explicit rebuild', () => {
    const f = loggedRun();
    setUlpiUnit(f, 'a', 'done', {}, { now });
    const kept = readFileSync(f, 'utf8');
    rmSync(f);
    expect(() => setUlpiUnit(f, 'b', 'done')).toThrow(/ENOENT.* its event log .* remains/);
    expect(existsSync(f)).toBe(false);
    rebuildUlpiSnapshot(f);
    expect(readFileSync(f, 'utf8')).toBe(kept);
  });

  it('should refuse a snapshot of the same run written without the log, and still rebuild one behind it', () => {
    const f = loggedRun();
    const edited = readUlpiDoc(f);
    (edited.units as Record<string, { status: string }>).a!.status = 'done';
    writeFileSync(f, `${JSON.stringify(edited, null, 2)}\n`);
    const e = (() => {
      try {
        setUlpiUnit(f, 'b', 'done');
      } catch (err) {
        return err as { exitCode: number; message: string };
      }
      return undefined;
    })();
    expect(e?.exitCode).toBe(2);
    expect(e?.message).toMatch(/matches no state of its event log .*ckpt ulpi rebuild .* --force/);
  });

  it('should leave, after a crash at any step of an append, a log that replays to the old or the new document', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.constantFrom('unit', 'item', 'phase'), (k, verb) => {
        const act = (file: string, fs = nodeFileSystem) =>
          verb === 'unit'
            ? setUlpiUnit(file, 'a', 'done', {}, { fs, now })
            : verb === 'item'
              ? addUlpiItems(file, { kind: 'x' }, { fs, now })
              : setUlpiPhase(file, 'p', 'running', { fs, now });
        const f = loggedRun();
        setUlpiUnit(f, 'a', 'in_progress', {}, { now });
        const old = JSON.stringify(readUlpiDoc(f));
        const twin = tmpTree({ 'r.json': readFileSync(f), 'r.events.jsonl': logOf(f) });
        trees.push(twin);
        act(twin.path('r.json'));
        const next = JSON.stringify(readUlpiDoc(twin.path('r.json')));
        const fs = faultyFileSystem(nodeFileSystem, { failAt: k });
        let crashed = false;
        try {
          act(f, fs);
        } catch (e) {
          if (!(e instanceof CrashError)) throw e;
          crashed = true;
          // A crashed writer's lock goes stale after 5 s; remove it as time would.
          try {
            nodeFileSystem.rmdirSync(`${f}.lock`);
          } catch {}
        }
        const r = replayUlpiEventLog(logOf(f));
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        const replayed = JSON.stringify(r.doc);
        expect([old, next]).toContain(replayed);
        if (!crashed) expect(replayed).toBe(next);
        const snap = JSON.stringify(readUlpiDoc(f));
        expect([old, next]).toContain(snap);
        // The snapshot is never ahead of the log; after recovery it is the log's state.
        if (replayed === old) expect(snap).toBe(old);
        rebuildUlpiSnapshot(f);
        expect(JSON.stringify(readUlpiDoc(f))).toBe(replayed);
      }),
      fcParams(40),
    );
  });
});
