import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { describe, expect, it } from 'vitest';

const cli = resolve(import.meta.dirname, '../../../bin/ckpt.js');
function runCli(args: string[], o: { cwd: string }) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    cwd: o.cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('ckpt ulpi', () => {
  it('should run the verbs with the original outputs and exit codes (0 ok, 1 usage, 2 refusal)', () => {
    const t = tmpTree();
    try {
      const f = t.path('.ulpi/runs/r.json');
      const run = (...a: string[]) => runCli(['ulpi', ...a], { cwd: t.dir });
      expect(run('init', f, '--task', 'demo', '--units', 'a,b', '--id', 'demo').stdout).toBe('demo\n');
      expect(run('init', f, '--task', 'again').code).toBe(2);
      expect(run('unit', f, 'b', 'pending', '--deps', 'a').code).toBe(0);
      expect(run('unit', f, 'a', 'done').code).toBe(0);
      const before = readFileSync(f);
      const demote = run('unit', f, 'a', 'pending');
      expect([demote.code, demote.stderr]).toEqual([
        2,
        expect.stringMatching(/^ckpt: unit 'a' is already done/),
      ]);
      expect(readFileSync(f).equals(before)).toBe(true);
      expect(run('unit', f).code).toBe(1);
      expect(run('unit', f, 'a', 'finished').code).toBe(1);
      expect(run('init', t.path('x.json'), '--task', 't', '--launch', '{nope').code).toBe(1);
      expect(JSON.parse(run('resume', f).stdout)).toEqual({ skip: ['a'], eligible: ['b'], dep_blocked: {} });
      expect(run('item', f, '--json', '{"id":"q","kind":"decision"}').stdout).toBe('["q"]\n');
      expect(run('finalize', f, 'done').code).toBe(2);
      expect(run('resolve', f, '--ids', 'q').stdout).toBe('["q"]\n');
      expect(run('unit', f, 'b', 'done').code).toBe(0);
      expect(run('finalize', f, 'done', '--result', 'ok').code).toBe(0);
      const summary = JSON.parse(run('get', f, '--summary').stdout);
      expect(summary).toMatchObject({ id: 'demo', status: 'done', total: 2, done: 2, currentPhase: null });
      expect(readFileSync(f, 'utf8')).toMatch(
        /\n {2}"schemaVersion": 2,\n[\s\S]*"finishedAt": "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"\n\}\n$/,
      );
      expect(runCli(['migrate', f], { cwd: t.dir }).code).toBe(0);
      expect(runCli(['migrate'], { cwd: t.dir }).code).toBe(1);
    } finally {
      t.cleanup();
    }
  });

  it('should refuse (exit 2) to replay an old event log over a run the original re-initialised', () => {
    const t = tmpTree();
    try {
      const fixture = resolve(
        import.meta.dirname,
        '../../../../../test-fixtures/ulpi/semantic-snapshot-reinitialised',
      );
      cpSync(join(fixture, '.ulpi'), t.path('.ulpi'), { recursive: true });
      const f = t.path('.ulpi/runs/add-oauth-20261129T071300Z.json');
      const before = readFileSync(f);
      const r = runCli(['ulpi', 'unit', f, 'oauth-config', 'done'], { cwd: t.dir });
      expect([r.code, r.stderr]).toEqual([
        2,
        expect.stringMatching(/is a different run than its event log .* refusing to replay the log over it/),
      ]);
      expect(readFileSync(f).equals(before)).toBe(true);
      expect(runCli(['validate', f], { cwd: t.dir }).stdout).toContain('ulpi/snapshot-diverged');
    } finally {
      t.cleanup();
    }
  });

  it('should exit 1 with one line for an unknown or missing verb, and ignore unknown options, as the original', () => {
    const t = tmpTree();
    const usage =
      'ckpt: usage: ckpt ulpi <init|unit|phase|get|resume|item|resolve|validation|finalize|gc> <file|runs-dir> ...';
    try {
      for (const [args, message] of [
        [['ulpi', 'frobnicate', 'x.json'], "ckpt: unknown command 'frobnicate'"],
        [['ulpi', 'frobnicate'], usage],
        [['ulpi'], usage],
        [['ulpi', '--bogus'], usage],
        [
          ['ulpi', 'resume', 'x.json', '--bogus'],
          "ckpt: cannot read/parse x.json: ENOENT: no such file or directory, open 'x.json'",
        ],
        [['migrate', '--bogus'], "ckpt: unknown option '--bogus'"],
      ] as const) {
        const r = runCli([...args], { cwd: t.dir });
        expect(r.code, args.join(' ')).toBe(1);
        expect(r.stderr, args.join(' ')).toBe(`${message}\n`);
      }
      // A help request is ckpt's own: the verb's help page, exit 0.
      const help = runCli(['ulpi', 'unit', '--help'], { cwd: t.dir });
      expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('Usage: ckpt ulpi unit')]);
      // The global rule is unchanged for every other command: usage errors exit 2.
      expect(runCli(['status', '--bogus'], { cwd: t.dir }).code).toBe(2);
      expect(runCli(['frobnicate'], { cwd: t.dir }).code).toBe(2);
      expect(runCli(['ulpi', '--help'], { cwd: t.dir }).code).toBe(0);
    } finally {
      t.cleanup();
    }
  });
});
