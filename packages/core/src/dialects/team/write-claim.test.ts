import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { CrashError, faultyFileSystem, tmpTree } from '@ckpt/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { validatePaths } from '../../check/validate-files.js';
import { CkptError } from '../../errors.js';
import { nodeFileSystem } from '../../fs/file-system.js';
import { loadTeamRuns } from './status.js';
import { finishTeamTask, startTeamRun, startTeamTask } from './write.js';
import { claimPathFor } from './write-claim.js';

let trees: { cleanup(): void }[] = [];
afterEach(() => {
  for (const t of trees) t.cleanup();
  trees = [];
});

function startedTask(): { dir: string; run: string } {
  const t = tmpTree();
  trees.push(t);
  const dir = t.path('.');
  const run = startTeamRun({ projectDir: dir, profile: 'new', stage: 'build' }).runId;
  startTeamTask({ projectDir: dir, run, task: 'fe', stage: 'build', agent: 'fe' });
  return { dir, run };
}
const attempt = (dir: string, run: string) =>
  loadTeamRuns(dir)
    .models.find((m) => m.id === run)!
    .tasks.find((x) => x.id === 'fe')!.latest;
const refusal = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    if (e instanceof CkptError && e.exitCode === 2) return e.message;
    throw e;
  }
  return undefined;
};

describe('team terminal claim', () => {
  it('should publish one terminal event and refuse a second finish-task on the same attempt (exit 2)', () => {
    const { dir, run } = startedTask();
    finishTeamTask({ projectDir: dir, run, task: 'fe', status: 'completed' });
    expect(existsSync(claimPathFor(join(dir, '.team/runs', run), 'fe', 1))).toBe(true);
    expect(refusal(() => finishTeamTask({ projectDir: dir, run, task: 'fe', status: 'failed' }))).toMatch(
      /already has a terminal event/,
    );
    expect(attempt(dir, run).terminals).toHaveLength(1);
  });

  it('should refuse while the claim holder is alive, even before its event is published', () => {
    const { dir, run } = startedTask();
    const runDir = join(dir, '.team/runs', run);
    // A live holder on this host: the test runner's parent process.
    const claim = {
      task_id: 'fe',
      attempt: 1,
      status: 'failed',
      event_file: '20990101T000000000000Z-task_finished-fe-a1-abcdef.json',
      event: { event: 'task_finished' },
      pid: process.ppid,
      host: hostname(),
      claimed_at: new Date().toISOString(),
    };
    mkdirSync(join(runDir, 'claims'));
    writeFileSync(claimPathFor(runDir, 'fe', 1), JSON.stringify(claim));
    expect(refusal(() => finishTeamTask({ projectDir: dir, run, task: 'fe', status: 'completed' }))).toMatch(
      /is being finished as failed by another finish-task \(pid \d+/,
    );
    expect(attempt(dir, run).status).toBe('running (uncertain)');
  });

  it('should, after a crash at any step of finish-task, leave no or one terminal event, and a retry completes it', () => {
    for (let k = 1; k <= 20; k++) {
      const { dir, run } = startedTask();
      const fs = faultyFileSystem(nodeFileSystem, { failAt: k });
      let crashed = false;
      try {
        finishTeamTask({ projectDir: dir, run, task: 'fe', status: 'completed', evidence: 'tests pass', fs });
      } catch (e) {
        if (!(e instanceof CrashError)) throw e;
        crashed = true;
      }
      const a = attempt(dir, run);
      expect(a.terminals.length, `step ${k}`).toBeLessThanOrEqual(1);
      if (!crashed) expect(a.status).toBe('completed');
      // The state after the crash: uncertain (no terminal event) or completed, never a conflict.
      expect(['running (uncertain)', 'completed']).toContain(a.status);
      // A retry of the same finish-task completes it (or is refused because it already landed).
      const again = refusal(() =>
        finishTeamTask({ projectDir: dir, run, task: 'fe', status: 'completed', evidence: 'tests pass' }),
      );
      if (a.status === 'completed') expect(again).toMatch(/already has a terminal event/);
      else expect(again).toBeUndefined();
      const done = attempt(dir, run);
      expect(done.status).toBe('completed');
      expect(done.terminals).toHaveLength(1);
      const events = readdirSync(join(dir, '.team/runs', run, 'events')).filter((n) => n.endsWith('.json'));
      expect(events.filter((n) => n.includes('task_finished'))).toHaveLength(1);
      // ckpt validate does not flag the claims (they are not checkpoint files).
      const report = validatePaths(['.'], { cwd: dir });
      const problems = report.files.flatMap((f) => f.findings).filter((f) => f.severity !== 'info');
      expect(problems).toEqual([]);
      if (!crashed) break;
    }
  });

  it('should publish the claimed event when a retry asks for another status, and refuse that retry', () => {
    const { dir, run } = startedTask();
    const runDir = join(dir, '.team/runs', run);
    // Crash right after the claim's link (the write-once publish of the claim is complete).
    const count = faultyFileSystem(nodeFileSystem);
    const probe = startedTask();
    finishTeamTask({ projectDir: probe.dir, run: probe.run, task: 'fe', status: 'failed', fs: count });
    const afterClaim = count.log.findIndex((l) => l.startsWith('linkSync') && l.includes('.claim')) + 1;
    const fs = faultyFileSystem(nodeFileSystem, { failAt: afterClaim + 2 });
    expect(() => finishTeamTask({ projectDir: dir, run, task: 'fe', status: 'failed', fs })).toThrow(
      CrashError,
    );
    expect(existsSync(claimPathFor(runDir, 'fe', 1))).toBe(true);
    expect(attempt(dir, run).status).toBe('running (uncertain)');
    expect(refusal(() => finishTeamTask({ projectDir: dir, run, task: 'fe', status: 'completed' }))).toMatch(
      /finished as failed: an interrupted finish-task had claimed it/,
    );
    expect(attempt(dir, run).status).toBe('failed');
    expect(JSON.parse(readFileSync(claimPathFor(runDir, 'fe', 1), 'utf8')).status).toBe('failed');
  });
});
