import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ckpt, ckptAsync, HANG_MS, repoRoot, scratch } from './write-cli.js';

// One terminal event per attempt, even under a race: two `team finish-task` processes on the same attempt, started
// together, must give exactly one exit 0 and one exit 2, and leave one terminal event (today both exit 0 in about
// 6 of 20 rounds and leave a conflict).

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.reverse()) c();
  cleanups = [];
});

const ROUNDS = 50;

function teamRun(): { dir: string; run: string } {
  const s = scratch();
  cleanups.push(s.cleanup);
  const r = ckpt(['team', 'start-run', '--profile', 'new', '--stage', 'build'], s.dir);
  expect(r.code, r.stderr).toBe(0);
  return { dir: s.dir, run: r.stdout.trim() };
}
const finishedEvents = (dir: string, run: string, task: string) =>
  readdirSync(join(dir, '.team/runs', run, 'events')).filter((n) => n.includes(`-task_finished-${task}-a1-`));

describe('team finish-task race on one attempt', () => {
  it(
    `exactly one of two concurrent finish-task processes wins, ${ROUNDS} rounds`,
    async () => {
      const { dir, run } = teamRun();
      const tally: Record<string, number> = {};
      for (let i = 0; i < ROUNDS; i++) {
        const task = `t${i}`;
        const s = ckpt(
          ['team', 'start-task', '--run', run, '--task', task, '--stage', 'build', '--agent', 'fe'],
          dir,
        );
        expect(s.code, s.stderr).toBe(0);
        const finish = (status: string) =>
          ckptAsync(['team', 'finish-task', '--run', run, '--task', task, '--status', status], dir);
        const [a, b] = await Promise.all([finish('completed'), finish('failed')]);
        const codes = [a.code, b.code].sort().join('+');
        tally[codes] = (tally[codes] ?? 0) + 1;
        expect(codes, `round ${i}: ${a.stderr} | ${b.stderr}`).toBe('0+2');
        const loser = a.code === 2 ? a : b;
        expect(loser.stderr).toMatch(
          /^ckpt: task "t\d+" attempt 1 (already has a terminal event|is being finished as)/,
        );
        expect(finishedEvents(dir, run, task)).toHaveLength(1);
      }
      expect(tally).toEqual({ '0+2': ROUNDS });
      const v = ckpt(['validate', '.'], dir);
      expect(v.code, v.stdout).toBe(0);
    },
    ROUNDS * 3 * HANG_MS,
  );

  it(
    'a finisher killed between claim and publish: status says uncertain; a finish-task with another status publishes the claimed event and is refused (exit 2)',
    () => {
      const { dir, run } = teamRun();
      ckpt(['team', 'start-task', '--run', run, '--task', 'fe', '--stage', 'build', '--agent', 'fe'], dir);
      // A real process that claims the slot and is killed (SIGKILL) right after the claim's link, before publishing.
      const script = join(dir, 'killed-finisher.mjs');
      writeFileSync(
        script,
        [
          `const core = await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'packages/core/dist/index.js')).href)});`,
          'const fs = { ...core.nodeFileSystem, linkSync(a, b) {',
          "  core.nodeFileSystem.linkSync(a, b); if (b.endsWith('.claim')) process.kill(process.pid, 'SIGKILL'); } };",
          `core.finishTeamTask({ projectDir: process.cwd(), run: ${JSON.stringify(run)}, task: 'fe', status: 'completed', fs });`,
        ].join('\n'),
      );
      const killed = spawnSync(process.execPath, [script], { cwd: dir, timeout: HANG_MS, encoding: 'utf8' });
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      expect(existsSync(join(dir, '.team/runs', run, 'claims/fe-a1.claim'))).toBe(true);
      expect(finishedEvents(dir, run, 'fe')).toHaveLength(0);
      // Uncertain: the attempt is running (uncertain) and the run needs a person.
      const team = ckpt(['team', 'status'], dir);
      expect(team.stdout).toMatch(/fe .*running \(uncertain\)/);
      const status = ckpt(['status', '--exit-status'], dir);
      expect(status.code).toBe(1);
      expect(status.stdout).toMatch(/^! team/m);
      // Another status is refused (the claim decided it), the same status completes the interrupted finish.
      const other = ckpt(['team', 'finish-task', '--run', run, '--task', 'fe', '--status', 'failed'], dir);
      expect(other.code).toBe(2);
      expect(finishedEvents(dir, run, 'fe')).toHaveLength(1);
      const again = ckpt(['team', 'finish-task', '--run', run, '--task', 'fe', '--status', 'completed'], dir);
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/already has a terminal event \(completed\)/);
      expect(ckpt(['team', 'status'], dir).stdout).toMatch(/fe .*completed/);
      expect(ckpt(['validate', '.'], dir).code).toBe(0);
    },
    10 * HANG_MS,
  );

  it(
    'a retry with the same status after the kill exits 0 and publishes the one terminal event',
    () => {
      const { dir, run } = teamRun();
      ckpt(['team', 'start-task', '--run', run, '--task', 'fe', '--stage', 'build', '--agent', 'fe'], dir);
      const script = join(dir, 'killed-finisher.mjs');
      writeFileSync(
        script,
        [
          `const core = await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'packages/core/dist/index.js')).href)});`,
          'const fs = { ...core.nodeFileSystem, linkSync(a, b) {',
          "  core.nodeFileSystem.linkSync(a, b); if (b.endsWith('.claim')) process.kill(process.pid, 'SIGKILL'); } };",
          `core.finishTeamTask({ projectDir: process.cwd(), run: ${JSON.stringify(run)}, task: 'fe', status: 'completed', fs });`,
        ].join('\n'),
      );
      expect(spawnSync(process.execPath, [script], { cwd: dir, timeout: HANG_MS }).signal).toBe('SIGKILL');
      const retry = ckpt(['team', 'finish-task', '--run', run, '--task', 'fe', '--status', 'completed'], dir);
      expect(retry.code, retry.stderr).toBe(0);
      expect(finishedEvents(dir, run, 'fe')).toHaveLength(1);
      expect(ckpt(['team', 'status'], dir).stdout).toMatch(/fe .*completed/);
    },
    10 * HANG_MS,
  );
});
