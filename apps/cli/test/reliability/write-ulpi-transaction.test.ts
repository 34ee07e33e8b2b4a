import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { canMountTmpfs, ckpt, scratch, tryMountTmpfs, unmount } from './write-cli.js';

// `ckpt ulpi unit a done` on a run with an event log writes one transaction of 5 lines. On a disk that cuts the
// append short, it must land whole or not at all, and the exit code must say which (today: exit 70 with 3 of the
// 5 lines committed, and replay shows `a` done with no finishedAt).

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.reverse()) c();
  cleanups = [];
});

const RUN = '.ulpi/runs/r.json';
const LOG = '.ulpi/runs/r.events.jsonl';
const NOTE = 'n'.repeat(3000);

function loggedRun(dir: string): void {
  const r = ckpt(['ulpi', 'init', RUN, '--task', 't', '--units', 'a,b', '--id', 'r', '--event-log'], dir);
  expect(r.code, r.stderr).toBe(0);
}

function expectUnchanged(dir: string, log: string, snap: string): void {
  expect(readFileSync(join(dir, LOG), 'utf8')).toBe(log);
  expect(readFileSync(join(dir, RUN), 'utf8')).toBe(snap);
  const replay = ckpt(['ulpi', 'replay', RUN], dir);
  expect(replay.code, replay.stderr).toBe(0);
  const a = JSON.parse(replay.stdout).units.a;
  expect(a.status).toBe('pending');
  expect(a.finishedAt).toBeUndefined();
  expect(replay.stderr).toBe('');
}

function expectLandsAfterwards(dir: string): void {
  const ok = ckpt(['ulpi', 'unit', RUN, 'a', 'done', '--note', 'later'], dir);
  expect(ok.code, ok.stderr).toBe(0);
  const a = JSON.parse(ckpt(['ulpi', 'replay', RUN], dir).stdout).units.a;
  expect(a.status).toBe('done');
  expect(a.finishedAt).toMatch(/Z$/);
  expect(JSON.parse(readFileSync(join(dir, RUN), 'utf8')).units.a).toEqual(a);
  expect(ckpt(['validate', '.'], dir).code).toBe(0);
}

describe('ulpi event-log transaction on a disk that cuts the append short', () => {
  it('a file size limit inside the transaction: exit 4, the log and the file unchanged, replay shows the old state', () => {
    const s = scratch();
    cleanups.push(s.cleanup);
    loggedRun(s.dir);
    const log = readFileSync(join(s.dir, LOG), 'utf8');
    const snap = readFileSync(join(s.dir, RUN), 'utf8');
    // The limit lands inside the appended transaction (at most 1024 bytes past the log's end; the note alone is 3000).
    const blocks = Math.ceil((statSync(join(s.dir, LOG)).size + 1) / 512);
    const r = ckpt(['ulpi', 'unit', RUN, 'a', 'done', '--note', NOTE], s.dir, { fileSizeBlocks: blocks });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(
      /^ckpt: could not write \.ulpi\/runs\/r\.events\.jsonl: the file would exceed the maximum file size \(nothing was changed: the transaction was rolled back\)\nhint: /,
    );
    expectUnchanged(s.dir, log, snap);
    expectLandsAfterwards(s.dir);
  }, 60_000);

  // A real full disk needs a small tmpfs, which only root with the right to mount can make: the case says so.
  it(`a full tmpfs (ENOSPC): exit 4, nothing changed${canMountTmpfs ? '' : ' — mounting needs root with CAP_SYS_ADMIN; here a file size limit stands in for it'}`, () => {
    const s = scratch();
    cleanups.push(s.cleanup);
    const mnt = join(s.dir, 'mnt');
    mkdirSync(mnt);
    const mounted = tryMountTmpfs(mnt, 'size=64k');
    if (mounted) cleanups.push(() => unmount(mnt));
    loggedRun(mnt);
    const log = readFileSync(join(mnt, LOG), 'utf8');
    const snap = readFileSync(join(mnt, RUN), 'utf8');
    let r: ReturnType<typeof ckpt>;
    if (mounted) {
      // Fill the disk but for a few hundred bytes: the append of the 3 KB transaction runs out of space.
      for (let i = 0; ; i++) {
        try {
          writeFileSync(join(mnt, `filler-${i}`), Buffer.alloc(4096));
        } catch {
          break;
        }
      }
      r = ckpt(['ulpi', 'unit', RUN, 'a', 'done', '--note', NOTE], mnt);
      expect(r.code, r.stderr).toBe(4);
      expect(r.stderr).toMatch(
        /^ckpt: could not write \S+: no space left on the device \(nothing was changed/,
      );
    } else {
      const blocks = Math.ceil((statSync(join(mnt, LOG)).size + 1) / 512);
      r = ckpt(['ulpi', 'unit', RUN, 'a', 'done', '--note', NOTE], mnt, { fileSizeBlocks: blocks });
      expect(r.code, r.stderr).toBe(4);
    }
    expectUnchanged(mnt, log, snap);
  }, 60_000);
});
