import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { runBounded, SAMPLE, scratchProject, statusCodes, TEAM_DIR, TEAM_RUN, ULPI_RUN } from './read-cli.js';

// Issue 16 item 7 (right verdicts when the authoritative file is gone or wrong) and issue 15 item 5, loader side
// (no read through a symlink out of the project), through the built CLI in real, time-bounded processes.

let cleanup = () => {};
afterEach(() => cleanup());

function project(): string {
  const p = scratchProject();
  cleanup = p.cleanup;
  return p.dir;
}

const teamStatus = (dir: string) => {
  const r = runBounded(['status', '--json'], { cwd: dir });
  expect(r.hung).toBe(false);
  return (JSON.parse(r.stdout).runs as { id: string; status: string; findings: { code: string }[] }[]).find(
    (x) => x.id === TEAM_RUN,
  );
};

describe('a team run whose run.json is gone or wrong', () => {
  it('is completed and valid when intact (the baseline)', () => {
    const dir = project();
    expect(teamStatus(dir)?.status).toBe('completed');
    expect(runBounded(['validate', '.team'], { cwd: dir }).code).toBe(0);
  });

  for (const mode of ['deleted', 'a directory', 'dangling', 'a loop'] as const)
    it(`is not completed and not exit 0 when run.json is ${mode}`, () => {
      const dir = project();
      const p = join(dir, TEAM_DIR, 'run.json');
      rmSync(p);
      if (mode === 'a directory') mkdirSync(p);
      if (mode === 'dangling') symlinkSync('gone.json', p);
      if (mode === 'a loop') symlinkSync('run.json', p);
      const run = teamStatus(dir);
      expect(run?.status).toBe('unreadable');
      expect(run?.findings.map((f) => f.code)).toContain('team/missing-run-json');
      const v = runBounded(['validate', '.team'], { cwd: dir });
      expect(v.hung).toBe(false);
      expect(v.code).not.toBe(0);
      expect(v.stdout).toContain('team/missing-run-json');
      if (mode === 'a loop') expect(v.stdout).toContain('run.json is a symbolic link loop');
    });
});

describe('an event that is not a file', () => {
  for (const mode of ['a directory', 'a FIFO', 'a loop'] as const)
    it(`is a finding when it is ${mode}, not dropped`, () => {
      const dir = project();
      const name = '20261126T120000000000Z-task_started-x-a1-aaaaaa.json';
      const p = join(dir, TEAM_DIR, 'events', name);
      if (mode === 'a directory') mkdirSync(p);
      if (mode === 'a FIFO') execFileSync('mkfifo', [p]);
      if (mode === 'a loop') symlinkSync(name, p);
      const want = mode === 'a loop' ? 'io/symlink-loop' : 'io/not-a-regular-file';
      expect(teamStatus(dir)?.findings.map((f) => f.code)).toContain(want);
      const v = runBounded(['validate', '--reporter', 'json', '.team'], { cwd: dir });
      expect(v.code).toBe(3);
      const files = JSON.parse(v.stdout).files as { file: string; findings: { code: string }[] }[];
      expect(files.find((f) => f.file.endsWith(name))?.findings.map((f) => f.code)).toEqual([want]);
    });
});

describe('ulpi, JSON numbers and env values', () => {
  it('reports a ulpi run file replaced by a directory, not "no runs found"', () => {
    const t = tmpTree({});
    cleanup = t.cleanup;
    mkdirSync(join(t.dir, '.ulpi/runs/run-1.json'), { recursive: true });
    const r = runBounded(['status', '--json'], { cwd: t.dir });
    expect(r.hung).toBe(false);
    expect(r.stderr).not.toContain('no runs');
    expect(statusCodes(r.stdout)).toEqual(['io/not-a-regular-file']);
  });

  it('names a symlink loop as a loop, not "no such file"', () => {
    const dir = project();
    rmSync(join(dir, ULPI_RUN));
    symlinkSync('run-2026-11-27-152204Z.json', join(dir, ULPI_RUN));
    const v = runBounded(['validate', ULPI_RUN], { cwd: dir });
    expect(v.code).toBe(3);
    expect(v.stdout).toContain('io/symlink-loop');
    expect(v.stdout).not.toContain('ENOENT');
    expect(v.stdout + v.stderr).not.toContain('no such file');
  });

  it('reports 1e400 as out of range', () => {
    const dir = project();
    const p = join(dir, ULPI_RUN);
    writeFileSync(p, readFileSync(p, 'utf8').replace('"schemaVersion": 2', '"schemaVersion": 1e400'));
    const v = runBounded(['validate', ULPI_RUN], { cwd: dir });
    expect(v.code).toBe(1);
    expect(v.stdout).toContain('parse/number-out-of-range');
    expect(v.stdout).toContain('number at /schemaVersion is out of range');
  });

  it('reports a NUL byte in an env value', () => {
    const t = tmpTree({});
    cleanup = t.cleanup;
    const rel = '.opencode/reports/migrate-orders-db-20261127T081200Z';
    cpSync(join(SAMPLE, rel), join(t.dir, rel), { recursive: true });
    const p = join(t.dir, rel, 'state.env');
    writeFileSync(p, `${readFileSync(p, 'utf8')}NOTE="a\u0000b"\n`);
    const v = runBounded(['validate', `${rel}/state.env`], { cwd: t.dir });
    expect(v.code).toBe(1);
    expect(v.stdout).toContain('the value of NOTE contains a NUL byte');
  });
});

describe('a symlink out of the project (status --json)', () => {
  function outside() {
    const t = tmpTree({
      'elsewhere/secret.json': JSON.stringify({ schemaVersion: 2, id: 'stolen-run', units: {} }),
      'elsewhere/runs/other.json': JSON.stringify({ schemaVersion: 2, id: 'stolen-dir-run', units: {} }),
      'proj/.ulpi/runs/mine.json': readFileSync(join(SAMPLE, ULPI_RUN), 'utf8'),
    });
    cleanup = t.cleanup;
    return t.dir;
  }

  it('to a file: a finding names the link; the target is never read', () => {
    const dir = outside();
    const proj = join(dir, 'proj');
    symlinkSync(join(dir, 'elsewhere/secret.json'), join(proj, '.ulpi/runs/link.json'));
    symlinkSync('/etc/passwd', join(proj, '.ulpi/runs/passwd.json'));
    const r = runBounded(['status', '--json'], { cwd: proj });
    expect(r.hung).toBe(false);
    expect(r.stdout).not.toContain('stolen-run');
    expect(r.stdout).not.toContain('root:');
    expect(r.stdout).not.toContain('unexpected character');
    const runs = JSON.parse(r.stdout).runs as { id: string; findings: { code: string; file: string }[] }[];
    for (const id of ['link', 'passwd'])
      expect(runs.find((x) => x.id === id)?.findings.map((f) => [f.code, f.file])).toEqual([
        ['io/outside-project', `.ulpi/runs/${id}.json`],
      ]);
  });

  it('to a directory: none of its files is read', () => {
    const dir = outside();
    const proj = join(dir, 'proj');
    rmSync(join(proj, '.ulpi/runs'), { recursive: true });
    symlinkSync(join(dir, 'elsewhere/runs'), join(proj, '.ulpi/runs'));
    const r = runBounded(['status', '--json'], { cwd: proj });
    expect(r.hung).toBe(false);
    expect(r.stdout).not.toContain('stolen-dir-run');
    // Not even listed: the names of the files in the outside folder are not shown either.
    expect(r.stdout).not.toContain('other');
    expect(statusCodes(r.stdout)).toEqual(['io/outside-project']);
  });
});
