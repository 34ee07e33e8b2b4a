import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProject, needsPerson, RUN_VIEW_FORMAT_VERSION, triageOrder } from '@ckpt/core';
import { createViewer } from '@ckpt/viewer';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './run-cli.js';

const sample = join(repoRoot, 'test-fixtures/sample-project');
// One fixed time for this process and every CLI it starts, so staleness and "ago" agree between them.
process.env.CKPT_NOW = '2026-11-29T09:00:00Z';
const runs = triageOrder(loadProject(sample));

describe('ckpt status', () => {
  it('should list every run in triage order (needs a person, running, the rest), one line each with dialect, id, status, progress and problems', () => {
    const r = runCli(['status', sample]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/DIALECT\s+RUN\s+STATUS\s+DONE\s+PROBLEMS\s+UPDATED\s+ATTENTION/);
    runs.forEach((run, i) => {
      const line = lines[i + 1]!;
      expect(line).toContain(run.dialect);
      expect(line).toContain(run.id);
      expect(line).toContain(`${run.progress.done}/${run.progress.total}`);
      expect(line.startsWith('!')).toBe(needsPerson(run.attention));
      expect(
        line
          .trimEnd()
          .split(/\s{2,}/)
          .at(-1),
      ).toMatch(run.attention.reasons[0]?.code ?? '-');
    });
    expect(r.stderr).toBe('');
  });

  it('should print the same documents as the viewer API with --json', async () => {
    const viewer = await createViewer({ dir: sample, watch: false });
    try {
      const cli = JSON.parse(runCli(['status', sample, '--json']).stdout);
      expect(cli.formatVersion).toBe(RUN_VIEW_FORMAT_VERSION);
      expect(cli).toEqual((await viewer.app.inject({ url: '/api/runs' })).json());
      const oneEach = [...new Map(runs.map((r) => [r.dialect, r])).values()];
      for (const run of oneEach) {
        const api = `/api/runs/${encodeURIComponent(run.dialect)}/${encodeURIComponent(run.id)}`;
        const one = JSON.parse(
          runCli(['status', sample, '--run', `${run.dialect}/${run.id}`, '--json']).stdout,
        );
        expect(one).toEqual((await viewer.app.inject({ url: api })).json());
        const plan = JSON.parse(
          runCli(['resume', sample, '--run', `${run.dialect}/${run.id}`, '--json']).stdout,
        );
        expect(plan).toEqual((await viewer.app.inject({ url: `${api}/resume` })).json());
      }
    } finally {
      await viewer.close();
    }
  });

  it('should show one run in detail with --run, by a unique prefix too', () => {
    const run = runs.find((r) => r.findings.length > 0)!;
    const r = runCli(['status', sample, '--run', run.id.slice(0, -2)]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(run.id);
    expect(r.stdout).toContain('Findings');
    expect(r.stdout).toContain(run.findings[0]!.code);
    expect(r.stdout).toContain(run.resume.summary);
  });

  it('should exit 1 with --exit-status when a run needs attention, else 0', () => {
    expect(runs.some((r) => needsPerson(r.attention))).toBe(true);
    expect(runCli(['status', sample, '--exit-status']).code).toBe(1);
    const calm = runs.find((r) => !needsPerson(r.attention))!;
    expect(runCli(['status', sample, '--run', `${calm.dialect}/${calm.id}`, '--exit-status']).code).toBe(0);
  });

  it('should give status --exit-status and resume --exit-status the same answer for every run', () => {
    for (const run of runs) {
      const ref = `${run.dialect}/${run.id}`;
      const want = needsPerson(run.attention) ? 1 : 0;
      expect([ref, runCli(['status', sample, '--run', ref, '--exit-status']).code]).toEqual([ref, want]);
      expect([ref, runCli(['resume', sample, '--run', ref, '--exit-status']).code]).toEqual([ref, want]);
    }
  });

  it('should flag what the issue found unflagged: an uncertain team task, resumable runs needing a person, a stale ulpi run', () => {
    const codes = (id: string) => runs.find((r) => r.id.startsWith(id))!.attention.reasons.map((r) => r.code);
    expect(codes('20261128T140312558021Z')).toContain('resume/needs-person');
    expect(codes('release-v2-4-0-20261128T101500Z')).toContain('resume/needs-person');
    expect(codes('lint-sweep')).toContain('run/stale');
    const detail = runCli(['status', sample, '--run', 'lint-sweep']).stdout;
    expect(detail).toContain('Attention (2)');
    const plan = runCli(['resume', sample, '--run', 'lint-sweep']).stdout;
    expect(plan.split('\n')[1]).toBe(
      '  needs attention (action): run/stale, units/blocked; `ckpt status --run ulpi/lint-sweep-20260812T140210Z` says why',
    );
    expect(codes('lint-sweep')).toContain('units/blocked');
    expect(detail).toContain('ckpt resume --run ulpi/lint-sweep-20260812T140210Z');
  });

  it('should keep to one dialect with --dialect', () => {
    const out = JSON.parse(runCli(['status', sample, '--dialect', 'resumable', '--json']).stdout);
    expect(out.runs.length).toBeGreaterThan(0);
    expect(out.runs.every((r: { dialect: string }) => r.dialect === 'resumable')).toBe(true);
  });

  it('should refuse an unknown run (3), an ambiguous one (2), a missing directory (3), a bad dialect (2)', () => {
    const none = runCli(['status', sample, '--run', 'no-such-run']);
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/^ckpt: no run "no-such-run"/);
    const amb = runCli(['status', sample, '--run', 'release-v2']);
    expect(amb.code).toBe(2);
    expect(amb.stderr).toContain('matches 2 runs');
    expect(runCli(['status', join(sample, 'nope')]).code).toBe(3);
    expect(runCli(['status', sample, '--dialect', 'nope']).code).toBe(2);
  });

  it('should print control characters from a checkpoint escaped, never raw', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ckpt-status-'));
    try {
      const root = '.opencode/reports/release-v2-4-0-20261128T101500Z';
      cpSync(join(sample, root), join(dir, root), { recursive: true });
      const f = join(dir, root, 'state.env');
      writeFileSync(f, readFileSync(f, 'utf8').replace(/TASK_NAME=".*"/, 'TASK_NAME="evil\x1b]0;pwned\x07"'));
      const r = runCli(['status', dir, '--run', 'release']);
      expect(r.stdout).not.toContain('\x1b]');
      expect(r.stdout).toContain('evil\\x1b]0;pwned\\x07');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ckpt resume', () => {
  it('should print the plan of a run: skip, run next, blocked, needs a person', () => {
    const run = runs.find((r) => r.resume.skip.length > 0)!;
    const r = runCli(['resume', sample, '--run', `${run.dialect}/${run.id}`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(run.resume.summary);
    expect(r.stdout).toContain('skip');
    expect(r.stdout).toContain(run.resume.skip[0]!.id);
  });

  it('should exit 1 with --exit-status when resuming needs a person, and require --run', () => {
    const stuck = runs.find((r) => r.resume.blocked.length > 0 || r.resume.needsPerson.length > 0)!;
    expect(runCli(['resume', sample, '--run', `${stuck.dialect}/${stuck.id}`, '--exit-status']).code).toBe(1);
    expect(runCli(['resume', sample]).code).toBe(2);
  });
});

describe('ckpt view', () => {
  it('should refuse a bad port and a missing directory', () => {
    expect(runCli(['view', sample, '--port', 'x']).code).toBe(2);
    expect(runCli(['view', join(sample, 'nope')]).code).toBe(3);
  });

  it('should end --help with examples', () => {
    for (const cmd of ['status', 'resume', 'view'])
      expect(runCli([cmd, '--help']).stdout).toMatch(/Examples:\n {2}\$ ckpt /);
  });
});
