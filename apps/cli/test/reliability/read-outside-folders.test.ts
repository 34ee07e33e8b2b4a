import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBounded, SAMPLE } from './read-cli.js';

// A folder below a runs root (a team run folder, its events/, a resumable artifacts/, an agent-context iterations/)
// that is a symbolic link out of the project: no command shows a name of a file outside the project.

const MARKER = 'zz-outside-marker';
let base = '';
afterEach(() => {
  if (base) rmSync(base, { recursive: true, force: true });
  base = '';
});

function linked(): { proj: string; names: string[]; kept: string } {
  base = mkdtempSync(join(tmpdir(), 'ckpt-outside-folders-cli-'));
  const proj = join(base, 'proj');
  const outside = join(base, 'outside');
  cpSync(SAMPLE, proj, { recursive: true });
  mkdirSync(outside);
  const move = (rel: string, to: string) => {
    renameSync(join(proj, rel), join(outside, to));
    symlinkSync(join(outside, to), join(proj, rel));
    writeFileSync(join(outside, to, `${MARKER}-${to}.json`), '{}');
  };
  const runs = readdirSync(join(proj, '.team/runs'))
    .filter((n) => /^\d{8}T/.test(n))
    .sort();
  move(`.team/runs/${runs[0]}`, 'team-run');
  move(`.team/runs/${runs[1]}/events`, 'team-events');
  move('.opencode/reports/hotfix-login-throttle-20261129T071500Z/artifacts', 'artifacts');
  move('.agent-context/runs/fix-login-timeout-bug/iterations', 'iterations');
  // The markers, and the names no other folder of the sample holds (the event and run file names; artifact names
  // such as S1-baseline-tests.txt are shared with another run, iteration numbers with other tasks).
  const names = readdirSync(outside)
    .flatMap((d) => readdirSync(join(outside, d)))
    .filter((n) => n.startsWith(MARKER) || /^\d{8}T\d+Z-/.test(n));
  return { proj, names, kept: runs[1]! };
}

describe('a folder below a runs root linked out of the project', () => {
  it('status, status --json, list --json, resume and doctor show no name of a file outside', () => {
    const { proj, names, kept } = linked();
    for (const args of [
      ['status'],
      ['status', '--json'],
      ['list', '--json'],
      ['doctor'],
      ['doctor', '--json'],
      ['status', '--run', `team/${kept}`],
      ['resume', '--run', `team/${kept}`],
      ['resume', '--run', `team/${kept}`, '--json'],
    ]) {
      const r = runBounded(args, { cwd: proj });
      expect(r.hung).toBe(false);
      for (const n of names) expect(`${r.stdout}${r.stderr}`, `${args.join(' ')}: ${n}`).not.toContain(n);
    }
    const r = runBounded(['status', '--json'], { cwd: proj });
    const codes = (JSON.parse(r.stdout).runs as { findings: { code: string; file: string }[] }[]).flatMap(
      (x) => x.findings.filter((f) => f.code === 'io/outside-project').map((f) => f.file),
    );
    const runFolder = /^\.team\/runs\/\d{8}T[^/]+$/;
    expect(codes.filter((f) => runFolder.test(f))).toHaveLength(1);
    expect(codes.filter((f) => !runFolder.test(f)).sort()).toEqual([
      '.agent-context/runs/fix-login-timeout-bug/iterations',
      '.opencode/reports/hotfix-login-throttle-20261129T071500Z/artifacts',
      `.team/runs/${kept}/events`,
    ]);
  });
});
