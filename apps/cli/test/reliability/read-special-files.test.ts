import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBounded, scratchProject, statusCodes, TEAM_DIR, TEAM_RUN, ULPI_RUN } from './read-cli.js';

// Issue 16 items 1 and 2: only regular files are read, and never more than the size limit. Every command runs in
// a real process with a time limit: a hang is a failed assertion (`hung`), never a stuck test run.

let cleanup = () => {};
afterEach(() => cleanup());

function project(): string {
  const p = scratchProject();
  cleanup = p.cleanup;
  return p.dir;
}

const mkfifo = (p: string) => {
  rmSync(p, { force: true });
  execFileSync('mkfifo', [p]);
};

describe('a FIFO at a checkpoint path', () => {
  it('validate: a FIFO named on the command line is exit 3 naming its type; in a folder, a finding and exit 3', () => {
    const dir = project();
    mkfifo(join(dir, ULPI_RUN));
    const named = runBounded(['validate', ULPI_RUN], { cwd: dir });
    expect(named.hung).toBe(false);
    expect(named.code).toBe(3);
    expect(named.stdout).toContain('io/not-a-regular-file');
    expect(named.stdout).toContain('is a FIFO, not a regular file');
    const folder = runBounded(['validate', '--reporter', 'json', '.'], { cwd: dir });
    expect(folder.hung).toBe(false);
    expect(folder.code).toBe(3);
    const files = JSON.parse(folder.stdout).files as { file: string; findings: { code: string }[] }[];
    expect(files.find((f) => f.file === ULPI_RUN)?.findings.map((f) => f.code)).toEqual([
      'io/not-a-regular-file',
    ]);
  });

  it('status and resume: the run is shown unreadable with the finding, the others as before', () => {
    const dir = project();
    mkfifo(join(dir, TEAM_DIR, 'run.json'));
    const status = runBounded(['status', '--json'], { cwd: dir });
    expect(status.hung).toBe(false);
    const runs = JSON.parse(status.stdout).runs as { id: string; status: string }[];
    expect(runs.find((r) => r.id === TEAM_RUN)?.status).toBe('unreadable');
    expect(runs.length).toBeGreaterThan(1);
    expect(statusCodes(status.stdout)).toContain('io/not-a-regular-file');
    const resume = runBounded(['resume', '--run', TEAM_RUN], { cwd: dir });
    expect(resume.hung).toBe(false);
    expect(resume.stdout).toContain(`${TEAM_RUN}  unreadable`);
    expect(resume.stdout).toContain('files/unreadable');
  });

  it('doctor: reports the FIFO as unreadable, without opening it blocking', () => {
    const dir = project();
    mkfifo(join(dir, ULPI_RUN));
    const r = runBounded(['doctor', '--json'], { cwd: dir });
    expect(r.hung).toBe(false);
    const problems = JSON.parse(r.stdout).problems as { kind: string; path?: string; message: string }[];
    expect(problems).toContainEqual(
      expect.objectContaining({
        kind: 'unreadable',
        path: ULPI_RUN,
        message: 'checkpoint file cannot be read (is a FIFO, not a regular file)',
      }),
    );
  });

  it('doctor: a FIFO lock file and a dangling temp-file link neither block nor crash it', () => {
    const dir = project();
    mkfifo(join(dir, 'run.lock'));
    symlinkSync('gone', join(dir, TEAM_DIR, 'events', '.x.json.ckpt-tmp-1-aa'));
    const r = runBounded(['doctor', '--json'], { cwd: dir });
    expect(r.hung).toBe(false);
    expect(r.code).not.toBe(70);
    const problems = JSON.parse(r.stdout).problems as { kind: string; path?: string }[];
    expect(problems).toContainEqual(
      expect.objectContaining({ kind: 'temp-file', path: `${TEAM_DIR}/events/.x.json.ckpt-tmp-1-aa` }),
    );
  });

  it('team start-task: refuses a run whose run.json is a FIFO, writing nothing', () => {
    const dir = project();
    mkfifo(join(dir, TEAM_DIR, 'run.json'));
    const before = readdirSync(join(dir, TEAM_DIR, 'events')).sort();
    const r = runBounded(
      ['team', 'start-task', '--run', TEAM_RUN, '--task', 'qa-1', '--stage', 'qa', '--agent', 'qa'],
      { cwd: dir },
    );
    expect(r.hung).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('has a run.json that is a FIFO, not a regular file');
    expect(readdirSync(join(dir, TEAM_DIR, 'events')).sort()).toEqual(before);
  });

  it('team start-task: an event that is a FIFO does not block the writer', () => {
    const dir = project();
    mkfifo(join(dir, TEAM_DIR, 'events', '20261126T120000000000Z-task_started-x-a1-aaaaaa.json'));
    const r = runBounded(
      ['team', 'start-task', '--run', TEAM_RUN, '--task', 'qa-1', '--stage', 'qa', '--agent', 'qa'],
      { cwd: dir },
    );
    expect(r.hung).toBe(false);
    expect([0, 2, 3]).toContain(r.code);
  });

  it('ulpi unit: a FIFO run file or event log fails fast and leaves no lock behind', () => {
    const dir = project();
    const runs = join(dir, '.ulpi/runs');
    mkfifo(join(dir, ULPI_RUN));
    const a = runBounded(['ulpi', 'unit', ULPI_RUN, 'x', 'done'], { cwd: dir });
    expect(a.hung).toBe(false);
    expect(a.code).not.toBe(0);
    expect(a.stderr).toContain('is a FIFO, not a regular file');
    mkfifo(join(runs, 'add-oauth-20261129T071300Z.events.jsonl'));
    const b = runBounded(['ulpi', 'unit', '.ulpi/runs/add-oauth-20261129T071300Z.json', 'x', 'done'], {
      cwd: dir,
    });
    expect(b.hung).toBe(false);
    expect(b.code).not.toBe(0);
    expect(readdirSync(runs).filter((n) => n.endsWith('.lock'))).toEqual([]);
  });
});

describe('devices and the size limit', () => {
  it('should refuse a symlink to /dev/zero as a character device instead of reading it forever', () => {
    const dir = project();
    symlinkSync('/dev/zero', join(dir, '.ulpi/runs/zero.json'));
    const v = runBounded(['validate', '.ulpi/runs/zero.json'], { cwd: dir });
    expect(v.hung).toBe(false);
    expect(v.code).toBe(3);
    expect(v.stdout).toContain('zero.json is a character device, not a regular file');
    const s = runBounded(['status', '--json'], { cwd: dir });
    expect(s.hung).toBe(false);
    expect(s.code).toBe(0);
    expect(statusCodes(s.stdout)).toContain('io/not-a-regular-file');
  });

  it('should refuse a file over 64 MiB before reading it, and read it under --max-file-size or CKPT_MAX_FILE_SIZE', () => {
    const dir = project();
    // Sparse: 100 MiB of size, no disk used.
    writeFileSync(join(dir, '.ulpi/runs/big.json'), '');
    truncateSync(join(dir, '.ulpi/runs/big.json'), 100 * 2 ** 20);
    const over = runBounded(['validate', '.ulpi/runs/big.json'], { cwd: dir });
    expect(over.hung).toBe(false);
    expect(over.code).toBe(3);
    expect(over.stdout).toContain('io/too-large');
    expect(over.stdout).toContain('100 MiB (104857600 bytes), over the 64 MiB limit');
    const status = runBounded(['status', '--json'], { cwd: dir });
    expect(statusCodes(status.stdout)).toContain('io/too-large');
    // Raised: the file is read (and is not JSON: 100 MiB of NUL bytes).
    for (const r of [
      runBounded(['validate', '--max-file-size', '200MiB', '.ulpi/runs/big.json'], { cwd: dir }),
      runBounded(['validate', '.ulpi/runs/big.json'], { cwd: dir, env: { CKPT_MAX_FILE_SIZE: '209715200' } }),
    ]) {
      expect(r.hung).toBe(false);
      expect(r.stdout).not.toContain('io/too-large');
      expect(r.code).toBe(1);
    }
    // Lowered: a normal run file is now too large.
    const low = runBounded(['status', '--json', '--max-file-size=1KiB'], { cwd: dir });
    expect(statusCodes(low.stdout)).toContain('io/too-large');
  });

  it('should refuse a malformed size with exit 2', () => {
    const dir = project();
    expect(runBounded(['validate', '--max-file-size', 'lots', '.'], { cwd: dir }).code).toBe(2);
    const env = runBounded(['validate', '.'], { cwd: dir, env: { CKPT_MAX_FILE_SIZE: 'banana' } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('CKPT_MAX_FILE_SIZE must be a size');
    expect(existsSync(join(dir, ULPI_RUN))).toBe(true);
  });
});
