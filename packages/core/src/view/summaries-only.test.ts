import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventStateValue } from '../dialects/team/records.js';
import { warmPool, warmPoolLoaded } from '../pool/pool.js';
import { createProjectIndex } from './project-index.js';
import { summarizeRun } from './summary.js';

// Pooled runs use core's built worker (packages/core/dist/pool/pool-worker.js): build core first.

const fixtures = resolve(import.meta.dirname, '../../../../test-fixtures');
const NOW = Date.parse('2026-12-01T10:00:00Z');

/** The runs of a project as `ckpt status` loads them: once, confined; every team document read ahead when pooled. */
const load = (project: string, summariesOnly: boolean, threads: number) =>
  createProjectIndex(project, {
    signatures: false,
    confineTo: project,
    now: NOW,
    summariesOnly,
    pool: { threads, minItemsPerThread: 1, chunkSize: 3 },
  })
    .load()
    .runs.map((r) => ({ run: r, summary: summarizeRun(r) }));

describe('summariesOnly', () => {
  it('gives every summary a whole load gives, on the sample project and every team fixture, read ahead on a worker', async () => {
    const projects = [
      join(fixtures, 'sample-project'),
      ...readdirSync(join(fixtures, 'team')).map((f) => join(fixtures, 'team', f)),
    ];
    warmPool(2);
    await warmPoolLoaded();
    let cut = 0;
    let detailed = 0;
    for (const project of projects) {
      const whole = load(project, false, 1);
      const summarized = load(project, true, 2);
      expect(
        summarized.map((r) => r.summary),
        project,
      ).toEqual(whole.map((r) => r.summary));
      // The events were read ahead and cut: a team unit's detail is not there.
      const evidence = (runs: typeof whole) =>
        runs
          .filter((r) => r.run.dialect === 'team')
          .flatMap((r) => r.run.units.filter((u) => u.evidence !== undefined || u.inputs.length > 0));
      if (evidence(whole).length > 0) {
        expect(evidence(summarized), project).toEqual([]);
        cut++;
      }
      // Nor is what neither a summary nor attention reads: a unit's attempts and artifacts, phases, skip items.
      const detail = (runs: typeof whole) =>
        runs
          .filter((r) => r.run.dialect === 'team')
          .flatMap((r) => [
            ...r.run.units.filter((u) => u.attempts.length > 0 || u.artifacts.length > 0),
            ...r.run.phases,
            ...r.run.resume.skip,
          ]);
      expect(detail(summarized), project).toEqual([]);
      if (detail(whole).length > 0) detailed++;
    }
    expect(cut).toBeGreaterThan(3);
    expect(detailed).toBeGreaterThan(3);
  }, 60_000);

  it('keeps the members a run state is derived from, own members only', () => {
    const event = {
      event: 'task_finished',
      at: '2026-11-20T08:00:00Z',
      run_id: 'r',
      task_id: 't',
      stage: 'build',
      agent: 'be',
      attempt: 2,
      status: 'failed',
      session: 's',
      parent_session: null,
      inputs: ['a'],
      artifacts: ['b'],
      evidence: 'e',
      next: 'n',
      retry_of: 1,
      reason: 'r',
    };
    expect(eventStateValue(event)).toEqual({
      event: 'task_finished',
      at: '2026-11-20T08:00:00Z',
      task_id: 't',
      stage: 'build',
      agent: 'be',
      attempt: 2,
      status: 'failed',
      artifacts: ['b'],
      retry_of: 1,
    });
    const { retry_of: _, reason: __, ...first } = event;
    expect(Object.hasOwn(eventStateValue(first) as object, 'retry_of')).toBe(false);
    const { artifacts: _a, stage: _s, ...partial } = event;
    expect(eventStateValue(partial)).toEqual({
      event: 'task_finished',
      at: '2026-11-20T08:00:00Z',
      task_id: 't',
      agent: 'be',
      attempt: 2,
      status: 'failed',
      retry_of: 1,
    });
    expect(Object.keys(eventStateValue(partial) as object)).not.toContain('artifacts');
    for (const v of [null, 'x', 3, [event]]) expect(eventStateValue(v)).toBe(v);
  });
});
