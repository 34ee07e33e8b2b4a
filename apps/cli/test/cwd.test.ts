// `ckpt` works the same wherever it is started: paths relative to the current folder, the project found by
// walking up when no folder is given, `pnpm ckpt` from the folder pnpm was called in, and exit 3 naming the
// folder when there is nothing to show.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, repoRoot, runCli } from './run-cli.js';

const sample = join(repoRoot, 'test-fixtures/sample-project');
let tmp: string;
let project: string;

beforeAll(() => {
  // realpath: macOS and some CI images link /tmp elsewhere, and messages print the resolved folder.
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ckpt-cwd-')));
  project = join(tmp, 'proj');
  cpSync(sample, project, { recursive: true });
  mkdirSync(join(project, 'src', 'deep'), { recursive: true });
  mkdirSync(join(tmp, 'empty', 'sub'), { recursive: true });
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('ckpt status, list, resume without a folder', () => {
  it('should read the nearest folder holding runs at or above the current one', () => {
    const expected = runCli(['status', project]).stdout;
    expect(expected).toMatch(/\d+ runs/);
    for (const cwd of [project, join(project, 'src', 'deep'), join(project, '.team', 'runs')]) {
      const r = runCli(['status'], { cwd });
      expect({ cwd, code: r.code, stdout: r.stdout }).toEqual({ cwd, code: 0, stdout: expected });
    }
    expect(runCli(['list'], { cwd: join(project, 'src') }).stdout).toBe(expected);
    const resume = runCli(['resume', '--run', 'ulpi/add-oauth'], { cwd: join(project, '.ulpi') });
    expect(resume.code).toBe(0);
    expect(resume.stdout).toBe(runCli(['resume', project, '--run', 'ulpi/add-oauth']).stdout);
  });

  it('should resolve a folder given relative to the current folder', () => {
    const r = runCli(['status', 'proj', '--json'], { cwd: tmp });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).runs.length).toBeGreaterThan(0);
    expect(runCli(['status', '../..'], { cwd: join(project, 'src', 'deep') }).stdout).toBe(
      runCli(['status', project]).stdout,
    );
  });

  it('should exit 3 naming the folder when there is nothing to show', () => {
    const cwd = join(tmp, 'empty', 'sub');
    for (const cmd of [['status'], ['list'], ['resume', '--run', 'x'], ['view', '--port', '0']]) {
      const r = runCli(cmd, { cwd });
      expect({ cmd, code: r.code, stdout: r.stdout }).toEqual({ cmd, code: 3, stdout: '' });
      expect(r.stderr).toBe(
        `ckpt: no runs in ${cwd}: no folder from there up to / holds .team/, .ulpi/, .agent-context/ or resumable reports/, and its subfolders hold none either; name the project folder: \`ckpt status <dir>\`\n`,
      );
    }
    const given = runCli(['status', 'empty', '--dialect', 'team'], { cwd: tmp });
    expect(given.code).toBe(3);
    expect(given.stderr).toBe(
      `ckpt: no team runs in ${join(tmp, 'empty')} (searched it and its subfolders for .team/, .ulpi/, .agent-context/ and resumable reports/)\n`,
    );
  });
});

describe('ckpt view without a folder', () => {
  it('should serve the project found above the current folder', async () => {
    const child = spawn(process.execPath, [cliPath, 'view', '--port', '0'], {
      cwd: join(project, 'src', 'deep'),
      env: { ...process.env, NO_COLOR: '1' },
    });
    try {
      const url = await new Promise<string>((done, fail) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          if (out.includes('\n')) done(out.trim());
        });
        child.on('exit', (code) => fail(new Error(`ckpt view exited ${code}`)));
      });
      const api = (await (await fetch(`${url}api/runs`)).json()) as { runs: { id: string }[] };
      const status = JSON.parse(runCli(['status', project, '--json']).stdout) as { runs: { id: string }[] };
      expect(api.runs.map((r) => r.id)).toEqual(status.runs.map((r) => r.id));
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('pnpm ckpt', () => {
  it('should read paths relative to the folder pnpm was called in (INIT_CWD), not the repository root', () => {
    const cwd = join(repoRoot, 'test-fixtures', 'sample-project', '.team');
    const r = spawnSync('pnpm', ['--silent', 'ckpt', 'status', '..', '--dialect', 'ulpi', '--json'], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(
      JSON.parse(runCli(['status', sample, '--dialect', 'ulpi', '--json']).stdout),
    );
    const walked = spawnSync('pnpm', ['--silent', 'ckpt', 'list'], { cwd, encoding: 'utf8' });
    expect(walked.stdout).toBe(runCli(['list', sample]).stdout);
  });
});
