import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { validatePaths } from '../check/validate-files.js';
import { loadProject } from '../view/load-project.js';

const SAMPLE = resolve(import.meta.dirname, '../../../../test-fixtures/sample-project');
const RUN = '20261126T083011204517Z-3e9b01';
const RUN_DIR = `.team/runs/${RUN}`;

let cleanup = () => {};
afterEach(() => cleanup());

/** The sample project's first team run alone (completed: both tasks finished, the approval valid). */
function teamRun(): string {
  const t = tmpTree({});
  cleanup = t.cleanup;
  cpSync(join(SAMPLE, '.team'), join(t.dir, '.team'), { recursive: true });
  rmSync(join(t.dir, '.team/runs/20261128T140312558021Z-a41c7f'), { recursive: true });
  writeFileSync(join(t.dir, '.team/runs/current'), `${RUN}\n`);
  return t.dir;
}

const codesOf = (dir: string) => {
  const report = validatePaths(['.'], { cwd: dir });
  return report.files.flatMap((f) => f.findings.map((x) => x.code));
};

describe('verdicts when the authoritative file is gone or wrong', () => {
  it('should show the intact run as completed (the baseline of the cases below)', () => {
    const dir = teamRun();
    expect(loadProject(dir)[0]).toMatchObject({ id: RUN, status: 'completed' });
    expect(codesOf(dir)).toEqual([]);
  });

  for (const [mode, code] of [
    ['deleted', 'team/missing-run-json'],
    ['a directory', 'io/not-a-regular-file'],
    ['a dangling symlink', 'io/unreadable'],
    ['a symlink loop', 'io/symlink-loop'],
    ['a FIFO', 'io/not-a-regular-file'],
  ] as const)
    it(`should not call a team run completed when its run.json is ${mode}, and validate should fail`, () => {
      const dir = teamRun();
      const p = join(dir, RUN_DIR, 'run.json');
      rmSync(p);
      if (mode === 'a directory') mkdirSync(p);
      if (mode === 'a dangling symlink') symlinkSync('nowhere.json', p);
      if (mode === 'a symlink loop') symlinkSync('run.json', p);
      if (mode === 'a FIFO') execFileSync('mkfifo', [p]);
      const run = loadProject(dir)[0]!;
      expect(run.status).toBe('unreadable');
      expect(run.tone).toBe('error');
      expect(run.findings.map((f) => f.code)).toContain(code);
      expect(run.findings.map((f) => f.code)).toContain('team/missing-run-json');
      const codes = codesOf(dir);
      expect(codes).toContain(code);
      expect(codes).toContain('team/missing-run-json');
    });

  for (const mode of ['a directory', 'a FIFO', 'a symlink loop'] as const)
    it(`should report an event that is ${mode}, not drop it`, () => {
      const dir = teamRun();
      const p = join(dir, RUN_DIR, 'events', '20261126T120000000000Z-task_started-x-a1-aaaaaa.json');
      if (mode === 'a directory') mkdirSync(p);
      if (mode === 'a FIFO') execFileSync('mkfifo', [p]);
      if (mode === 'a symlink loop') symlinkSync(p, p);
      const want = mode === 'a symlink loop' ? 'io/symlink-loop' : 'io/not-a-regular-file';
      const run = loadProject(dir)[0]!;
      expect(run.findings.find((f) => f.code === want)?.file).toBe(
        `${RUN_DIR}/events/20261126T120000000000Z-task_started-x-a1-aaaaaa.json`,
      );
      expect(codesOf(dir)).toContain(want);
    });

  it('should report a ulpi run file replaced by a directory, not "no runs"', () => {
    const t = tmpTree({});
    cleanup = t.cleanup;
    mkdirSync(join(t.dir, '.ulpi/runs/run-1.json'), { recursive: true });
    const runs = loadProject(t.dir);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.findings[0]).toMatchObject({
      code: 'io/not-a-regular-file',
      message: 'run-1.json is a directory, not a regular file',
    });
    expect(codesOf(t.dir)).toEqual(['io/not-a-regular-file']);
  });

  it('should say a symlink loop, not "no such file"', () => {
    const t = tmpTree({});
    cleanup = t.cleanup;
    mkdirSync(join(t.dir, '.ulpi/runs'), { recursive: true });
    symlinkSync('a.json', join(t.dir, '.ulpi/runs/b.json'));
    symlinkSync('b.json', join(t.dir, '.ulpi/runs/a.json'));
    const msgs = loadProject(t.dir).flatMap((r) => r.findings.map((f) => `${f.code} ${f.message}`));
    expect(msgs).toContain(
      'io/symlink-loop a.json is a symbolic link loop (too many levels of symbolic links)',
    );
  });
});

describe('loadProject confineTo', () => {
  const outside = () => {
    const t = tmpTree({
      'elsewhere/run.json': JSON.stringify({
        schemaVersion: 2,
        id: 'stolen',
        title: 'OUTSIDE TITLE',
        units: {},
      }),
      'elsewhere/runs/x.json': JSON.stringify({
        schemaVersion: 2,
        id: 'x',
        title: 'OUTSIDE DIR TITLE',
        units: {},
      }),
      'proj/.ulpi/runs/mine.json': JSON.stringify({ schemaVersion: 2, id: 'mine', title: 'mine', units: {} }),
      'proj/.agent-context/.keep': '',
    });
    cleanup = t.cleanup;
    return t.dir;
  };

  it('should never read a file through a symlink out of the project: a finding names the link', () => {
    const dir = outside();
    const proj = join(dir, 'proj');
    symlinkSync(join(dir, 'elsewhere/run.json'), join(proj, '.ulpi/runs/link.json'));
    symlinkSync('/etc/passwd', join(proj, '.ulpi/runs/passwd.json'));
    const runs = loadProject(proj, { confineTo: proj });
    const text = JSON.stringify(runs);
    expect(text).not.toContain('stolen');
    expect(text).not.toContain('root:');
    const link = runs.find((r) => r.id === 'link')!;
    expect(link.findings.map((f) => [f.code, f.file])).toEqual([
      ['io/outside-project', '.ulpi/runs/link.json'],
    ]);
    expect(runs.find((r) => r.id === 'passwd')!.findings[0]!.code).toBe('io/outside-project');
    expect(runs.find((r) => r.id === 'mine')!.title).toBe('mine');
    // Without confineTo (a library caller that asks for it), the link is followed as before.
    expect(JSON.stringify(loadProject(proj))).toContain('"stolen"');
  });

  it('should not read the files of a directory symlinked from outside the project', () => {
    const dir = outside();
    const proj = join(dir, 'proj');
    rmSync(join(proj, '.ulpi'), { recursive: true });
    mkdirSync(join(proj, '.ulpi'));
    symlinkSync(join(dir, 'elsewhere/runs'), join(proj, '.ulpi/runs'));
    const runs = loadProject(proj, { confineTo: proj });
    expect(JSON.stringify(runs)).not.toContain('OUTSIDE');
    expect(runs.flatMap((r) => r.findings.map((f) => f.code))).toEqual(['io/outside-project']);
  });
});
