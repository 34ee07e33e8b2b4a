import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './run-cli.js';

const fixtures = join(repoRoot, 'test-fixtures/team');

describe('ckpt team', () => {
  it('should run every verb on a fresh project as the seed describes', () => {
    const t = tmpTree({ '.team/06-architecture.md': '# arch\n', '.team/07-build.md': 'notes\n' });
    try {
      const p = ['--project', t.dir];
      const empty = runCli(['team', 'status', ...p]);
      expect(empty.code).toBe(0);
      expect(empty.stdout).toMatch(/no team run/);
      const start = runCli(['team', 'start-run', '--profile', 'new', '--stage', 'build', ...p]);
      expect(start.code).toBe(0);
      const run = start.stdout.trim();
      expect(run).toMatch(/^\d{8}T\d{12}Z-[0-9a-f]{6}$/);
      expect(readFileSync(t.path('.team/runs/current'), 'utf8')).toBe(`${run}\n`);
      const r = ['--run', run, ...p];
      expect(
        runCli([
          'team',
          'start-task',
          ...r,
          '--task',
          'build-fe',
          '--stage',
          'build',
          '--agent',
          'fe',
          '--input',
          '.team/06-architecture.md',
        ]).code,
      ).toBe(0);
      expect(
        runCli([
          'team',
          'finish-task',
          ...r,
          '--task',
          'build-fe',
          '--status',
          'failed',
          '--evidence',
          '2 fail',
        ]).code,
      ).toBe(0);
      expect(runCli(['team', 'retry', ...r, '--task', 'build-fe', '--reason', 'fix rounding']).code).toBe(0);
      const fin = runCli([
        'team',
        'finish-task',
        ...r,
        '--task',
        'build-fe',
        '--status',
        'awaiting_approval',
        '--artifact',
        '.team/07-build.md',
        '--json',
      ]);
      expect(fin.code).toBe(0);
      expect(JSON.parse(fin.stdout)).toMatchObject({ runId: run, attempt: 2 });
      expect(
        runCli([
          'team',
          'approve',
          ...r,
          '--stage',
          'build',
          '--artifact',
          '.team/07-build.md',
          '--by',
          'samet',
          '--note',
          'ok',
        ]).code,
      ).toBe(0);
      const s = runCli(['team', 'status', ...p, '--json']);
      expect(s.code).toBe(0);
      const json = JSON.parse(s.stdout);
      expect(json.run.units[0]).toMatchObject({ id: 'build-fe', status: 'awaiting_approval' });
      expect(json.run.units[0].attempts.map((a: { status: string }) => a.status)).toEqual([
        'failed',
        'awaiting_approval',
      ]);
      expect(json.run.approvals[0].state).toBe('valid');
      expect(json.resume.completed.map((x: { task: string }) => x.task)).toEqual(['build-fe']);
    } finally {
      t.cleanup();
    }
  });

  it('should refuse with one line on stderr and exit 2, writing nothing', () => {
    const t = tmpTree();
    try {
      const p = ['--project', t.dir];
      const run = runCli(['team', 'start-run', '--profile', 'new', '--stage', 'build', ...p]).stdout.trim();
      const cases = [
        ['finish-task', '--run', run, '--task', 'x', '--status', 'completed'],
        [
          'start-task',
          '--run',
          '20990101T000000000000Z-abcdef',
          '--task',
          'x',
          '--stage',
          's',
          '--agent',
          'a',
        ],
        ['start-task', '--run', run, '--task', 'x', '--stage', 's', '--agent', 'a', '--input', '/etc/passwd'],
        ['retry', '--run', run, '--task', 'x', '--reason', 'password=hunter22'],
      ];
      for (const args of cases) {
        const r = runCli(['team', ...args, ...p]);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
        expect(r.stderr).toMatch(/^ckpt: /);
        expect(r.stdout).toBe('');
      }
      expect(
        runCli(['team', 'finish-task', '--run', run, '--task', 'x', '--status', 'done', ...p]).code,
      ).toBe(2);
    } finally {
      t.cleanup();
    }
  });

  it('should print the conflict, the uncertain guidance and stale approvals in text status', () => {
    const conflict = runCli([
      'team',
      'status',
      '--project',
      join(fixtures, 'semantic-duplicate-terminal-events'),
    ]);
    expect(conflict.code).toBe(0);
    expect(conflict.stdout).toMatch(/conflict\s+build-fe-20261028T1300Z a1: completed .* vs failed/);
    const sample = runCli(['team', 'status', '--project', join(repoRoot, 'test-fixtures/sample-project')]);
    expect(sample.stdout).toMatch(/reconcile first: inspect its artifacts and evidence/);
    expect(sample.stdout).toMatch(/stale: artifact changed/);
    expect(
      runCli(['team', 'status', '--project', join(fixtures, 'valid-build-run'), '--run', 'nope']).code,
    ).toBe(3);
  });

  it('should end every team --help with examples', () => {
    for (const verb of ['', 'status', 'start-run', 'start-task', 'finish-task', 'retry', 'approve'])
      expect(runCli(['team', ...(verb ? [verb] : []), '--help']).stdout).toMatch(
        /Examples:\n {2}\$ (RUN=\$\()?ckpt team/,
      );
  });
});

describe('ckpt team status on the fixtures', () => {
  const cases = readdirSync(fixtures).filter((c) => existsSync(join(fixtures, c, 'expected.json')));
  it('should print, with --json, the status and resume plan each expected.json records', () => {
    for (const c of cases) {
      const expected = JSON.parse(readFileSync(join(fixtures, c, 'expected.json'), 'utf8'));
      if (!expected.resume) continue;
      const r = runCli(['team', 'status', '--json', '--project', join(fixtures, c)]);
      expect(r.code, c).toBe(0);
      const s = JSON.parse(r.stdout);
      expect(s.run?.id ?? null, c).toBe(expected.status.run);
      expect(
        Object.fromEntries(s.run.units.map((u: { id: string; status: string }) => [u.id, u.status])),
        c,
      ).toEqual(expected.status.tasks);
      const ids = (xs: { task: string }[]) => xs.map((x) => x.task);
      expect(
        {
          completed: ids(s.resume.completed),
          running: ids(s.resume.running),
          retry: ids(s.resume.retry),
          conflicts: ids(s.resume.conflicts),
          awaitingApproval: s.resume.awaitingApproval.map((g: { stage: string }) => g.stage),
        },
        c,
      ).toEqual(expected.resume);
    }
  }, 120_000);
});
