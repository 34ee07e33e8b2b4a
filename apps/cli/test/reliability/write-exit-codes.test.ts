import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { canMountTmpfs, ckpt, isRoot, repoRoot, scratch, tryMountTmpfs, unmount } from './write-cli.js';

// Every writer reports a write that cannot land as what it is: exit 4, one line naming the path and the reason,
// never "internal error" (70). The disk is made to refuse with a file size limit (`ulimit -f 0`: every write to a
// file fails with EFBIG, for root too), and with a read-only folder (chmod 555, or a read-only tmpfs as root).

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.reverse()) c();
  cleanups = [];
});
function folder(): string {
  const s = scratch();
  cleanups.push(s.cleanup);
  return s.dir;
}

const SHA = '4c7a1f0e9b2d3c5a6e8f7d1b0a9c8e7f6d5b4a3c';
const couldNotWrite = (stderr: string, reason: RegExp) => {
  const [first, hint, ...rest] = stderr.trimEnd().split('\n');
  expect(first).toMatch(/^ckpt: could not write \S+/);
  expect(first).toMatch(reason);
  expect(hint).toMatch(/^hint: /);
  expect(rest).toEqual([]);
  expect(stderr).not.toMatch(/internal error/);
};

/** Each writer family: how to prepare a project, then the command that writes. */
const writers: { name: string; setup: (dir: string) => string[] }[] = [
  { name: 'team start-run', setup: () => ['team', 'start-run', '--profile', 'new', '--stage', 'build'] },
  {
    name: 'team start-task',
    setup: (dir) => {
      const run = ckpt(['team', 'start-run', '--profile', 'new', '--stage', 'build'], dir).stdout.trim();
      return ['team', 'start-task', '--run', run, '--task', 'fe', '--stage', 'build', '--agent', 'fe'];
    },
  },
  {
    name: 'team finish-task',
    setup: (dir) => {
      const run = ckpt(['team', 'start-run', '--profile', 'new', '--stage', 'build'], dir).stdout.trim();
      ckpt(['team', 'start-task', '--run', run, '--task', 'fe', '--stage', 'build', '--agent', 'fe'], dir);
      return ['team', 'finish-task', '--run', run, '--task', 'fe', '--status', 'completed'];
    },
  },
  { name: 'ulpi init', setup: () => ['ulpi', 'init', '.ulpi/runs/r.json', '--task', 't', '--units', 'a'] },
  {
    name: 'ulpi unit (event log)',
    setup: (dir) => {
      ckpt(['ulpi', 'init', '.ulpi/runs/r.json', '--task', 't', '--units', 'a', '--event-log'], dir);
      return ['ulpi', 'unit', '.ulpi/runs/r.json', 'a', 'done'];
    },
  },
  {
    name: 'ulpi unit (plain file)',
    setup: (dir) => {
      ckpt(['ulpi', 'init', '.ulpi/runs/r.json', '--task', 't', '--units', 'a'], dir);
      return ['ulpi', 'unit', '.ulpi/runs/r.json', 'a', 'done'];
    },
  },
  {
    name: 'migrate --write',
    setup: (dir) => {
      const src = join(repoRoot, 'test-fixtures/ulpi/v1-old-cli/.ulpi/runs/lint-sweep-20260812T140210Z.json');
      mkdirSync(join(dir, '.ulpi/runs'), { recursive: true });
      writeFileSync(join(dir, '.ulpi/runs/old.json'), readFileSync(src));
      return ['migrate', '.ulpi/runs/old.json', '--write'];
    },
  },
  {
    name: 'resumable init',
    setup: (dir) => {
      mkdirSync(join(dir, 'docs'));
      writeFileSync(join(dir, 'docs/plan.md'), '1. tag\n');
      return resumableInit(dir);
    },
  },
  {
    name: 'resumable check',
    setup: (dir) => {
      mkdirSync(join(dir, 'docs'));
      writeFileSync(join(dir, 'docs/plan.md'), '1. tag\n');
      const root = ckpt(resumableInit(dir), dir, {
        env: { OPENCODE_CONFIG_DIR: join(dir, '.opencode') },
      }).stdout.trim();
      return ['resumable', 'check', '--run', root, 'S1', 'CLEAN_WORKTREE'];
    },
  },
];
function resumableInit(dir: string): string[] {
  return [
    'resumable',
    'init',
    '--task',
    'release',
    '--stages',
    'S1',
    '--repo-root',
    dir,
    '--branch',
    'main',
    '--base-pin',
    SHA,
    '--expected-old-sha',
    SHA,
    '--plan',
    'docs/plan.md',
    '--check',
    'S1:CLEAN_WORKTREE',
  ];
}

/** Every file under a folder with its bytes, to show a failed write changed nothing. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (e.isFile()) out[join(e.parentPath, e.name)] = readFileSync(join(e.parentPath, e.name), 'latin1');
  return out;
}

describe('writers on a disk that refuses the write', () => {
  for (const w of writers)
    it(`${w.name}: exit 4 and one line naming the path and the reason (file size limit, EFBIG)`, () => {
      const dir = folder();
      const env = { OPENCODE_CONFIG_DIR: join(dir, '.opencode') };
      const args = w.setup(dir);
      const before = snapshot(dir);
      const r = ckpt(args, dir, { env, fileSizeBlocks: 0 });
      expect(r.code, r.stderr).toBe(4);
      couldNotWrite(r.stderr, /: the file would exceed the maximum file size( \(.+\))?$/);
      // Nothing the command touched was changed (temp files are removed, a logged change is rolled back).
      if (!w.name.startsWith('resumable init')) expect(snapshot(dir)).toEqual(before);
    }, 60_000);

  // Permission bits stop a write only for a user that is not root; as root the same case runs on a read-only
  // tmpfs (EROFS) when the system lets this process mount one, else under a file size limit (EFBIG), and the
  // test's name says which.
  const readOnly = !isRoot
    ? 'chmod 555 folder (EACCES)'
    : canMountTmpfs
      ? 'read-only tmpfs (EROFS), running as root'
      : 'running as root without the right to mount: a file size limit (EFBIG) stands in for it';
  it(`a read-only folder: ulpi and team exit 4 with the reason (${readOnly})`, () => {
    const dir = folder();
    mkdirSync(join(dir, '.ulpi/runs'), { recursive: true });
    ckpt(['ulpi', 'init', '.ulpi/runs/r.json', '--task', 't', '--units', 'a', '--event-log'], dir);
    const run = ckpt(['team', 'start-run', '--profile', 'new', '--stage', 'build'], dir).stdout.trim();
    if (isRoot && !canMountTmpfs)
      return checkReadOnly(dir, run, /: the file would exceed the maximum file size( \(.+\))?$/, 0);
    const reason = isRoot ? /: the file system is read-only( \(.+\))?$/ : /: permission denied( \(.+\))?$/;
    if (isRoot) {
      // Copy the project onto a tmpfs, then remount it read-only.
      const mnt = join(folder(), 'mnt');
      mkdirSync(mnt);
      expect(tryMountTmpfs(mnt, 'size=4m')).toBe(true);
      cleanups.push(() => unmount(mnt));
      cpSync(dir, mnt, { recursive: true });
      expect(tryMountTmpfs(mnt, 'remount,ro')).toBe(true);
      return checkReadOnly(mnt, run, reason);
    }
    chmodSync(join(dir, '.ulpi/runs'), 0o555);
    chmodSync(join(dir, '.team/runs', run), 0o555);
    cleanups.push(() => {
      chmodSync(join(dir, '.ulpi/runs'), 0o755);
      chmodSync(join(dir, '.team/runs', run), 0o755);
    });
    checkReadOnly(dir, run, reason);
  }, 60_000);
});

function checkReadOnly(dir: string, run: string, reason: RegExp, fileSizeBlocks?: number): void {
  const before = snapshot(dir);
  for (const args of [
    ['ulpi', 'unit', '.ulpi/runs/r.json', 'a', 'done'],
    ['team', 'start-task', '--run', run, '--task', 'fe', '--stage', 'build', '--agent', 'fe'],
  ]) {
    const r = ckpt(args, dir, fileSizeBlocks === undefined ? {} : { fileSizeBlocks });
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(4);
    couldNotWrite(r.stderr, reason);
  }
  expect(snapshot(dir)).toEqual(before);
}
