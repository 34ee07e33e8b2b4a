import { chmodSync, rmSync, symlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { tmpTree } from '@ckpt/test-utils';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './run-cli.js';

const DEAD_PID = 2 ** 22 + 12345; // above Linux's pid_max default: never a live process
const runJson = `{"run_id":"20261028T131016577943Z-20fe61","created_at":"2026-10-28T13:10:16Z","profile":"new","stage":"build","status":"running","session":null,"parent_session":null}\n`;

describe('ckpt doctor', () => {
  it('should report Node, runs per dialect and nothing to do on a clean project', () => {
    const t = tmpTree({ '.team/runs/20261028T131016577943Z-20fe61/run.json': runJson });
    try {
      const env = { CKPT_NOW: '2026-10-28T14:00:00Z' };
      const r = runCli(['doctor', '--json'], { cwd: t.dir, env });
      expect(r.code).toBe(0);
      const report = JSON.parse(r.stdout);
      expect(report.node).toEqual({ version: process.version, required: '>=20.11', ok: true });
      const team = report.dialects.find((d: { dialect: string }) => d.dialect === 'team');
      expect(team.files).toBe(1);
      expect(team.roots.map((x: { root: string }) => x.root)).toEqual(['.team/runs']);
      expect(report.problems).toEqual([]);
      const text = runCli(['doctor'], { cwd: t.dir, env }).stdout;
      expect(text).toContain('✓ No run needs attention.');
      expect(text).toContain('✓ No unreadable files, stale locks or leftover temp files.');
    } finally {
      t.cleanup();
    }
  });

  it("should report a run's attention as status does: a running team run a day later is stale", () => {
    const t = tmpTree({ '.team/runs/20261028T131016577943Z-20fe61/run.json': runJson });
    try {
      const env = { CKPT_NOW: '2026-10-29T14:00:00Z' };
      const r = runCli(['doctor', '--json'], { cwd: t.dir, env });
      expect(r.code).toBe(1);
      const team = JSON.parse(r.stdout).dialects.find((d: { dialect: string }) => d.dialect === 'team');
      const status = JSON.parse(runCli(['status', '--json'], { cwd: t.dir, env }).stdout);
      expect(team.attention).toEqual([
        {
          id: status.runs[0].id,
          level: status.runs[0].attention.level,
          reasons: status.runs[0].attention.reasons,
        },
      ]);
      expect(team.attention[0].reasons.map((x: { code: string }) => x.code)).toContain('run/stale');
      const text = runCli(['doctor'], { cwd: t.dir, env });
      expect(text.stderr).toBe('');
      expect(text.stdout).toContain('→ the process running it has most likely stopped');
    } finally {
      t.cleanup();
    }
  });

  it('should report leftover temp files and stale locks, each with what to do, and exit 1', () => {
    const t = tmpTree({
      '.team/runs/20261028T131016577943Z-20fe61/run.json': runJson,
      '.team/runs/20261028T131016577943Z-20fe61/events/.a.json.ckpt-tmp-123-abcd': '{',
      '.ulpi/runs/add-oauth.json.tmp.4242': '{}',
      '.ulpi/runs/add-oauth.json.lock/owner': `${DEAD_PID}@${hostname()}\n`,
      'reports/fix-1-20261128T101500Z/run.lock': `pid="${process.pid}"\nhost="${hostname()}"\nacquired_at_utc="2020-01-01T00:00:00Z"\n`,
      'reports/fix-2-20261128T101500Z/run.lock': `pid="${process.pid}"\nhost="${hostname()}"\nacquired_at_utc="${new Date().toISOString()}"\n`,
    });
    try {
      const r = runCli(['doctor', '--json'], { cwd: t.dir });
      expect(r.code).toBe(1);
      const problems = JSON.parse(r.stdout).problems as {
        kind: string;
        path: string;
        message: string;
        fix: string;
      }[];
      const by = (path: string) => problems.find((p) => p.path === path);
      expect(by('.team/runs/20261028T131016577943Z-20fe61/events/.a.json.ckpt-tmp-123-abcd')).toMatchObject({
        kind: 'temp-file',
      });
      expect(by('.ulpi/runs/add-oauth.json.tmp.4242')?.fix).toContain(
        'rm -- .ulpi/runs/add-oauth.json.tmp.4242',
      );
      expect(by('.ulpi/runs/add-oauth.json.lock')).toMatchObject({ kind: 'stale-lock' });
      expect(by('.ulpi/runs/add-oauth.json.lock')?.message).toContain(`pid ${DEAD_PID}`);
      expect(by('.ulpi/runs/add-oauth.json.lock')?.fix).toContain('rm -r');
      expect(by('reports/fix-1-20261128T101500Z/run.lock')?.message).toMatch(/lock is \d+ min old/);
      expect(by('reports/fix-1-20261128T101500Z/run.lock')?.fix).toContain(
        'ckpt resumable lock --run reports/fix-1-20261128T101500Z --steal',
      );
      expect(by('reports/fix-2-20261128T101500Z/run.lock')).toBeUndefined();
      expect(problems).toHaveLength(4);
      const text = runCli(['doctor'], { cwd: t.dir }).stdout;
      expect(text).toContain('4 things to look at:');
      expect(text).toContain('→ when no writer is running, delete it');
    } finally {
      t.cleanup();
    }
  });

  it('should report a checkpoint file it cannot read', () => {
    const file = '.team/runs/20261028T131016577943Z-20fe61/run.json';
    const t = tmpTree({ [file]: runJson });
    try {
      // root reads any mode, so as root the unreadable file is a dangling symlink instead.
      if (process.getuid?.() === 0) {
        rmSync(t.path(file));
        symlinkSync(t.path('missing-target.json'), t.path(file));
      } else chmodSync(t.path(file), 0);
      const r = runCli(['doctor', '--json'], { cwd: t.dir });
      expect(JSON.parse(r.stdout).problems[0]).toMatchObject({ kind: 'unreadable' });
    } finally {
      t.cleanup();
    }
  });

  it('should find the runs of the sample project', () => {
    const r = runCli(['doctor', 'test-fixtures/sample-project', '--json'], { cwd: repoRoot });
    const report = JSON.parse(r.stdout);
    for (const d of report.dialects) expect(d.files, d.dialect).toBeGreaterThan(0);
  });

  it('should exit 3 for a directory that does not exist and 2 for a bad --stale-after', () => {
    expect(runCli(['doctor', 'no/such/dir']).code).toBe(3);
    expect(runCli(['doctor', '--stale-after', 'soon']).code).toBe(2);
  });
});
