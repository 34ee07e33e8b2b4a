import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './run-cli.js';

const event = (status: string) =>
  `${JSON.stringify(
    {
      event: 'task_finished',
      at: '2026-10-28T13:20:00Z',
      run_id: '20261028T131016577943Z-20fe61',
      task_id: 'build-fe',
      stage: 'build',
      agent: 'fe',
      attempt: 1,
      status,
      session: 'ses_1',
      parent_session: 'ses_0',
      inputs: [],
      artifacts: [],
      evidence: '',
      next: '',
    },
    null,
    2,
  )}\n`;
const eventPath =
  '.team/runs/20261028T131016577943Z-20fe61/events/20261028T132000000000Z-task_finished-build-fe-a1-3f9a0c.json';
// A run's events come with its run.json (a run without one is team/missing-run-json).
const runPath = '.team/runs/20261028T131016577943Z-20fe61/run.json';
const runJson = `{"run_id":"20261028T131016577943Z-20fe61","created_at":"2026-10-28T13:10:16Z","profile":"new","stage":"build","status":"running","session":null,"parent_session":null}\n`;

describe('ckpt validate', () => {
  it('should exit 1 and print path:line:col, code and message for an invalid file', () => {
    const t = tmpTree({ [runPath]: runJson, [eventPath]: event('done') });
    const r = runCli(['validate', t.path(eventPath)], { cwd: t.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${eventPath}:9:13`);
    expect(r.stdout).toContain('schema/enum');
    expect(r.stdout).toContain('expected one of: running, completed, failed, interrupted, awaiting_approval');
    t.cleanup();
  });

  it('should print one versioned JSON document with --reporter json and nothing else on stdout', () => {
    const t = tmpTree({ [runPath]: runJson, [eventPath]: event('done'), 'notes.txt': 'not a checkpoint' });
    const r = runCli(['validate', '.', '--reporter', 'json'], { cwd: t.dir });
    const doc = JSON.parse(r.stdout);
    expect(doc.formatVersion).toBe(1);
    expect(doc.summary).toMatchObject({ files: 2, invalid: 1, skipped: 1, errors: 1 });
    expect(doc.findings[0]).toMatchObject({
      code: 'schema/enum',
      file: eventPath,
      line: 9,
      column: 13,
      pointer: '/status',
    });
    t.cleanup();
  });

  it('should exit 0 for valid files', () => {
    const t = tmpTree({ [runPath]: runJson, [eventPath]: event('completed') });
    expect(runCli(['validate'], { cwd: t.dir }).code).toBe(0);
    t.cleanup();
  });

  it('should exit 2 on a bad flag or reporter, without a stack trace', () => {
    const bad = runCli(['validate', '--reporter', 'xml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    expect(runCli(['validate', '--no-such-flag']).code).toBe(2);
    expect(runCli(['no-such-command']).code).toBe(2);
  });

  it('should exit 3 when a path cannot be read', () => {
    const r = runCli(['validate', 'does/not/exist']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('does/not/exist');
  });

  it('should choose the github reporter under GitHub Actions and append a step summary', () => {
    const t = tmpTree({ [runPath]: runJson, [eventPath]: event('done'), 'summary.md': '' });
    const r = runCli(['validate', '.'], {
      cwd: t.dir,
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: t.path('summary.md') },
    });
    expect(r.stdout).toMatch(/^::error file=.*,line=9,col=13,.*title=ckpt schema\/enum::/m);
    expect(readFileSync(t.path('summary.md'), 'utf8')).toContain('ckpt validate');
    t.cleanup();
  });

  it('should show only errors with --quiet', () => {
    const t = tmpTree({ [runPath]: runJson, [eventPath]: `\uFEFF${event('completed')}` });
    const loud = runCli(['validate', '.'], { cwd: t.dir });
    expect(loud.stdout).toContain('parse/bom');
    const quiet = runCli(['validate', '.', '--quiet'], { cwd: t.dir });
    expect(quiet.stdout).not.toContain('parse/bom');
    expect(quiet.code).toBe(0);
    t.cleanup();
  });

  it('should report unknown fields only with --strict', () => {
    const doc = JSON.parse(event('completed'));
    doc.extra_field = 1;
    const t = tmpTree({ [runPath]: runJson, [eventPath]: `${JSON.stringify(doc, null, 2)}\n` });
    expect(runCli(['validate', '.'], { cwd: t.dir }).code).toBe(0);
    const strict = runCli(['validate', '.', '--strict'], { cwd: t.dir });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('schema/unknown-field');
    t.cleanup();
  });

  it('should report a malformed file it was named explicitly, and skip other named non-checkpoints', () => {
    const t = tmpTree({ 'broken.json': '{"a":', 'notes.md': '# notes', 'other.json': '{"a": 1}' });
    const broken = runCli(['validate', 'broken.json', '--reporter', 'json'], { cwd: t.dir });
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout).findings[0]).toMatchObject({
      code: 'parse/invalid-json',
      file: 'broken.json',
      line: 1,
    });
    const others = runCli(['validate', 'notes.md', 'other.json', '--reporter', 'json'], { cwd: t.dir });
    expect(others.code).toBe(0);
    expect(JSON.parse(others.stdout).summary).toMatchObject({ files: 0, skipped: 2 });
    t.cleanup();
  });

  it('should expand globs', () => {
    const t = tmpTree({ [runPath]: runJson, [eventPath]: event('done') });
    const r = runCli(['validate', '**/events/*.json', '--reporter', 'json'], { cwd: t.dir });
    expect(JSON.parse(r.stdout).summary.files).toBe(1);
    t.cleanup();
  });

  it('should end every --help with examples', () => {
    for (const cmd of [['validate'], ['schema', 'list'], ['schema', 'show']]) {
      const r = runCli([...cmd, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/Examples:\n(\s+\$ ckpt .+\n)+\s*$/);
    }
  });

  it('should print a schema by kind', () => {
    const r = runCli(['schema', 'show', 'team/run']);
    expect(JSON.parse(r.stdout).$id).toBe('https://ckpt.dev/schemas/team/run/1.0.json');
    expect(runCli(['schema', 'show', 'nope']).code).toBe(2);
  });

  it('should report the sample project with findings', () => {
    const r = runCli(['validate', join(repoRoot, 'test-fixtures/sample-project'), '--reporter', 'json']);
    expect(JSON.parse(r.stdout).summary.files).toBeGreaterThan(10);
  });
});

describe('ckpt validate --dialect', () => {
  const sample = join(repoRoot, 'test-fixtures/sample-project');
  const report = (args: string[], cwd = sample) =>
    JSON.parse(runCli(['validate', ...args, '--reporter', 'json'], { cwd }).stdout);

  it('should narrow a folder to the files of that dialect, by the catalog patterns', () => {
    const all = report(['.']);
    let sum = 0;
    for (const d of ['team', 'resumable', 'ulpi', 'agent-context']) {
      const one = report(['.', '--dialect', d]);
      expect(one.files.map((f: { kind: string }) => f.kind.split('/')[0]).every((k: string) => k === d)).toBe(
        true,
      );
      const mine = all.files.filter((f: { kind?: string }) => f.kind?.startsWith(`${d}/`));
      expect(one.summary.files, d).toBe(mine.length);
      expect(one.summary.errors, d).toBe(
        mine.reduce(
          (n: number, f: { findings: { severity: string }[] }) =>
            n + f.findings.filter((x) => x.severity === 'error').length,
          0,
        ),
      );
      sum += one.summary.files;
    }
    expect(sum).toBe(all.summary.files);
  });

  it('should force the dialect only on a file named explicitly', () => {
    const t = tmpTree({
      'notes/run.json': `${event('completed')}\n`,
      'notes/readme.md': '# not a checkpoint\n',
    });
    try {
      const folder = report(['notes', '--dialect', 'team'], t.dir);
      expect(folder.summary.files).toBe(0);
      const named = report(['notes/run.json', '--dialect', 'team'], t.dir);
      expect(named.files[0].kind).toMatch(/^team\//);
    } finally {
      t.cleanup();
    }
  });
});
