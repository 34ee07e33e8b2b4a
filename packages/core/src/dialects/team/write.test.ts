import { readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type TmpTree, tmpTree } from '@ckpt/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CkptError } from '../../errors.js';
import { loadTeamRuns, teamStatus } from './status.js';
import { approveTeamStage, finishTeamTask, retryTeamTask, startTeamRun, startTeamTask } from './write.js';

let t: TmpTree;
beforeEach(() => {
  t = tmpTree({ '.team/06-architecture.md': '# architecture\n' });
});
afterEach(() => t.cleanup());

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CkptError);
    expect((e as CkptError).exitCode).toBe(2);
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
};

const statusOf = (task: string) =>
  loadTeamRuns(t.dir).selected!.tasks.find((x) => x.id === task)?.latest.status;
const eventFiles = (run: string) => readdirSync(join(t.dir, '.team/runs', run, 'events')).sort();

describe('team writers (the seed verification list)', () => {
  it('should start safely in a fresh project: no run, no approvals', () => {
    const s = teamStatus(t.dir);
    expect(s.run).toBeNull();
    expect(s.current.state).toBe('no-runs');
    const { runId } = startTeamRun({ projectDir: t.dir, profile: 'new', stage: 'research' });
    expect(readFileSync(t.path('.team/runs/current'), 'utf8')).toBe(`${runId}\n`);
    const run = JSON.parse(readFileSync(t.path(`.team/runs/${runId}/run.json`), 'utf8'));
    expect(Object.keys(run)).toEqual([
      'run_id',
      'created_at',
      'profile',
      'stage',
      'status',
      'session',
      'parent_session',
    ]);
    expect(run.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(teamStatus(t.dir).run?.id).toBe(runId);
  });

  it('should keep parallel tasks apart, each in its own files', () => {
    const { runId: run } = startTeamRun({ projectDir: t.dir, profile: 'new', stage: 'build' });
    for (const task of ['fe', 'be', 'infra'])
      startTeamTask({
        projectDir: t.dir,
        run,
        task: `build-${task}`,
        stage: 'build',
        agent: task,
        inputs: ['.team/06-architecture.md'],
      });
    finishTeamTask({ projectDir: t.dir, run, task: 'build-fe', status: 'completed', evidence: '3 pass' });
    expect(eventFiles(run)).toHaveLength(4);
    expect(statusOf('build-fe')).toBe('completed');
    expect(statusOf('build-be')).toBe('running (uncertain)');
    expect(statusOf('build-infra')).toBe('running (uncertain)');
  });

  it('should report an interrupted task and retry it explicitly, keeping the history', () => {
    const { runId: run } = startTeamRun({ projectDir: t.dir, profile: 'new', stage: 'build' });
    startTeamTask({ projectDir: t.dir, run, task: 'build-be', stage: 'build', agent: 'be' });
    expect(refusal(() => retryTeamTask({ projectDir: t.dir, run, task: 'build-be', reason: 'x' }))).toMatch(
      /only a failed or interrupted/,
    );
    finishTeamTask({
      projectDir: t.dir,
      run,
      task: 'build-be',
      status: 'interrupted',
      evidence: 'tool call cancelled',
    });
    expect(teamStatus(t.dir).resume?.retry.map((r) => r.task)).toEqual(['build-be']);
    expect(
      refusal(() => startTeamTask({ projectDir: t.dir, run, task: 'build-be', stage: 'build', agent: 'be' })),
    ).toMatch(/retry/);
    const r = retryTeamTask({ projectDir: t.dir, run, task: 'build-be', reason: 'flaky network' });
    expect(r.attempt).toBe(2);
    const body = JSON.parse(readFileSync(r.path, 'utf8'));
    expect(body).toMatchObject({
      event: 'task_started',
      attempt: 2,
      retry_of: 1,
      reason: 'flaky network',
      status: 'running',
    });
    finishTeamTask({ projectDir: t.dir, run, task: 'build-be', status: 'completed' });
    const task = loadTeamRuns(t.dir).selected!.tasks[0]!;
    expect(task.attempts.map((a) => a.status)).toEqual(['interrupted', 'completed']);
    expect(teamStatus(t.dir).run?.findings).toEqual([]);
  });

  it('should recover a completed task as completed and refuse to rerun or refinish it', () => {
    const { runId: run } = startTeamRun({ projectDir: t.dir, profile: 'new', stage: 'build' });
    startTeamTask({ projectDir: t.dir, run, task: 'build-fe', stage: 'build', agent: 'fe' });
    finishTeamTask({
      projectDir: t.dir,
      run,
      task: 'build-fe',
      status: 'completed',
      artifacts: ['.team/07-build-fe.md'],
    });
    // A new session (compaction, restart) reads the same state back from disk.
    expect(teamStatus(t.dir).resume?.completed.map((c) => c.task)).toEqual(['build-fe']);
    expect(
      refusal(() => finishTeamTask({ projectDir: t.dir, run, task: 'build-fe', status: 'failed' })),
    ).toMatch(/already has a terminal event/);
    expect(
      refusal(() => startTeamTask({ projectDir: t.dir, run, task: 'build-fe', stage: 'build', agent: 'fe' })),
    ).toMatch(/not rerun/);
    expect(
      refusal(() => retryTeamTask({ projectDir: t.dir, run, task: 'build-fe', reason: 'again' })),
    ).toMatch(/completed/);
    expect(
      refusal(() => finishTeamTask({ projectDir: t.dir, run, task: 'never', status: 'completed' })),
    ).toMatch(/never started/);
  });

  it('should invalidate an approval when the artifact changes, and count a newer matching one', () => {
    const { runId: run } = startTeamRun({ projectDir: t.dir, profile: 'new', stage: 'build' });
    writeFileSync(t.path('.team/07-build.md'), 'v1\n');
    approveTeamStage({
      projectDir: t.dir,
      run,
      stage: 'build',
      artifact: '.team/07-build.md',
      by: 'samet',
      note: 'ok',
    });
    expect(loadTeamRuns(t.dir).selected!.gates[0]!.approved).toBe(true);
    writeFileSync(t.path('.team/07-build.md'), 'v2\n');
    const stale = loadTeamRuns(t.dir).selected!;
    expect(stale.gates[0]!.approved).toBe(false);
    expect(stale.approvals[0]!.state).toBe('stale: artifact changed');
    expect(teamStatus(t.dir).run?.findings.map((f) => f.code)).toEqual(['team/stale-approval']);
    approveTeamStage({ projectDir: t.dir, run, stage: 'build', artifact: '.team/07-build.md', by: 'samet' });
    const again = loadTeamRuns(t.dir).selected!;
    expect(again.gates[0]!.approved).toBe(true);
    expect(teamStatus(t.dir).run?.findings).toEqual([]);
    unlinkSync(t.path('.team/07-build.md'));
    expect(loadTeamRuns(t.dir).selected!.approvals.map((a) => a.state)).toEqual([
      'stale: artifact missing',
      'stale: artifact missing',
    ]);
  });

  it('should ignore a malformed event for state and report it', () => {
    const { runId: run } = startTeamRun({ projectDir: t.dir, profile: 'new', stage: 'build' });
    startTeamTask({ projectDir: t.dir, run, task: 'build-fe', stage: 'build', agent: 'fe' });
    const r = finishTeamTask({ projectDir: t.dir, run, task: 'build-fe', status: 'completed' });
    writeFileSync(r.path, readFileSync(r.path, 'utf8').slice(0, 120));
    expect(statusOf('build-fe')).toBe('running (uncertain)');
    expect(teamStatus(t.dir).run?.findings.map((f) => f.code)).toEqual(['parse/invalid-json']);
  });

  it('should refuse paths outside the project, secrets, long text and unknown runs, writing nothing', () => {
    const { runId: run } = startTeamRun({ projectDir: t.dir, profile: 'new', stage: 'build' });
    startTeamTask({ projectDir: t.dir, run, task: 'build-fe', stage: 'build', agent: 'fe' });
    const before = eventFiles(run);
    const finish = (extra: object) => () =>
      finishTeamTask({ projectDir: t.dir, run, task: 'build-fe', status: 'completed', ...extra });
    expect(refusal(finish({ artifacts: ['/etc/passwd'] }))).toMatch(/absolute/);
    expect(refusal(finish({ artifacts: ['C:\\x'] }))).toMatch(/absolute/);
    expect(refusal(finish({ artifacts: ['.team/../../x'] }))).toMatch(/escapes/);
    expect(refusal(finish({ evidence: 'token=abcd1234' }))).toMatch(/secret/);
    expect(refusal(finish({ next: 'use ghp_abcdefghijklmnopqrstuvwxyz0123' }))).toMatch(/GitHub/);
    expect(refusal(finish({ evidence: 'x'.repeat(1001) }))).toMatch(/limit is 1000/);
    expect(
      refusal(() =>
        startTeamTask({
          projectDir: t.dir,
          run,
          task: 'b',
          stage: 'build',
          agent: 'fe',
          inputs: ['../secrets'],
        }),
      ),
    ).toMatch(/escapes/);
    expect(
      refusal(() =>
        startTeamTask({
          projectDir: t.dir,
          run: '20990101T000000000000Z-abcdef',
          task: 'b',
          stage: 's',
          agent: 'a',
        }),
      ),
    ).toMatch(/unknown run/);
    expect(
      refusal(() =>
        approveTeamStage({ projectDir: t.dir, run, stage: 'build', artifact: '.team/missing.md', by: 'me' }),
      ),
    ).toMatch(/not a readable file/);
    expect(eventFiles(run)).toEqual(before);
  });
});
