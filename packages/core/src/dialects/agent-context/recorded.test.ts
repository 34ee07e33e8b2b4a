import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attentionOf } from '../../attention/attention.js';
import { loadProject } from '../../view/load-project.js';
import { agentContextStatus } from './status.js';

// Trees the real opencode-plusplus 0.1.1 wrote (test-fixtures/agent-context/recorded-*, recorded by
// apps/cli/scripts/agent-context-recorded/record.mjs). Its orchestrator writes no orchestrator state: the run's
// outcome is the decision of the iteration written last, and the task state stays the preflight one.
const fixtures = resolve(import.meta.dirname, '../../../../../test-fixtures/agent-context');
const run = (name: string) => {
  const runs = loadProject(join(fixtures, name), { dialects: ['agent-context'] });
  expect(runs).toHaveLength(1);
  return runs[0]!;
};
const detail = (r: ReturnType<typeof run>, label: string) => r.details.find((d) => d.label === label)?.value;

describe('agent-context runs the real 0.1.1 orchestrator wrote (no orchestrator state)', () => {
  it('should show the last loop decision and need a person after max loops (human-review)', () => {
    const r = run('recorded-orchestrate-max-loops');
    expect(detail(r, 'latest decision')).toBe('human-review (blocking), iteration 3');
    expect(r.resume.needsPerson).toEqual([
      {
        id: 'fix-add-rounding',
        reason:
          'iteration 3 decided human-review: Maximum orchestrator loop count (3) reached before the harness could finalize.',
      },
    ]);
    // The task state is still what writeTaskRun wrote at the start of the last loop.
    expect(r.status).toBe('EDIT_BOUNDARY_READY');
  });

  it('should need a person after a failed executor (block) and a rollback', () => {
    expect(run('recorded-orchestrate-executor-failure').resume.needsPerson.map((p) => p.reason)).toEqual([
      'iteration 1 decided block: The selected executor failed before the harness could trust the result.',
    ]);
    expect(detail(run('recorded-orchestrate-rollback'), 'latest decision')).toBe(
      'rollback (blocking), iteration 1',
    );
    expect(run('recorded-orchestrate-rollback').resume.needsPerson).toHaveLength(1);
  });

  it('should need no person after finalize', () => {
    const r = run('recorded-orchestrate-dry-run');
    expect(detail(r, 'latest decision')).toBe('finalize, iteration 1');
    expect(r.resume.needsPerson).toEqual([]);
    expect(r.tone).toBe('ok');
  });

  it('should not call a run whose loop ended stale: no process is meant to be running', () => {
    const later = Date.parse('2030-01-01T00:00:00Z');
    const ended = run('recorded-orchestrate-max-loops');
    expect(ended.tone).toBe('neutral');
    expect(attentionOf(ended, later).reasons.map((x) => x.code)).toEqual(['resume/needs-person']);
    expect(attentionOf(run('recorded-orchestrate-dry-run'), later).reasons).toEqual([]);
    // A task state loop --write left (no iterations) is still waiting on the agent, and goes stale.
    const waiting = loadProject(join(fixtures, 'recorded-task-states'), { dialects: ['agent-context'] }).find(
      (r) => r.id === 'handoff-only',
    )!;
    expect(waiting.tone).toBe('active');
    expect(attentionOf(waiting, later).reasons.map((x) => x.code)).toEqual(['run/stale']);
  });

  it('should take the iteration written last, not the highest number, after a shorter rerun', () => {
    // The rerun rewrote 001 and left 002 and 003 of the first run.
    const r = run('recorded-orchestrate-rerun-shorter');
    expect(detail(r, 'latest decision')).toBe('human-review (blocking), iteration 1');
    expect(r.resume.needsPerson.map((p) => p.reason)).toEqual([
      'iteration 1 decided human-review: Maximum orchestrator loop count (1) reached before the harness could finalize.',
    ]);
  });

  it('should say a run has no orchestrator state rather than an unsupported one', () => {
    const s = agentContextStatus(join(fixtures, 'recorded-orchestrate-max-loops'));
    expect(s.runs.map((r) => [r.runId, r.file, r.iterations.length])).toEqual([['fix-add-rounding', '', 3]]);
  });

  it('should show no loop decision for task states loop --write moved (no iterations)', () => {
    const runs = loadProject(join(fixtures, 'recorded-task-states'), { dialects: ['agent-context'] });
    runs.sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(runs.map((r) => [r.id, r.status, detail(r, 'latest decision')])).toEqual([
      ['check-edited', 'EDITED', undefined],
      ['check-stale-context', 'BLOCKED', undefined],
      ['fix-add-rounding', 'READY_FOR_REVIEW', undefined],
      ['handoff-only', 'EDIT_BOUNDARY_READY', undefined],
    ]);
    expect(detail(runs[2]!, 'task state')).toBe('READY_FOR_REVIEW (from EDITED), legacy format');
  });
});
