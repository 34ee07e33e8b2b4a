import { tmpTree } from '@ckpt/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProject } from '../load-project.js';
import { testRun } from '../test/test-run.js';
import { runGraph } from './graph.js';

const unit = (status: string, dependsOn: string[]) => ({
  status,
  dependsOn,
  note: '',
  createdAt: '2026-11-29T07:00:00Z',
  updatedAt: '2026-11-29T07:00:00Z',
});
const doc = {
  schemaVersion: 2,
  id: 'shape-20261129T070000Z',
  task: 'a run with a cycle and an unknown dependency',
  status: 'running',
  createdAt: '2026-11-29T07:00:00Z',
  updatedAt: '2026-11-29T07:10:00Z',
  phases: {},
  units: {
    base: unit('done', []),
    next: unit('pending', ['base']),
    'cyc-a': unit('pending', ['cyc-b']),
    'cyc-b': unit('pending', ['cyc-a']),
    after: unit('pending', ['cyc-a']),
    lost: unit('pending', ['ghost', 'base']),
  },
  openItems: [],
  resolvedItems: [],
  result: null,
};

describe('runGraph', () => {
  const t = tmpTree({ '.ulpi/runs/shape-20261129T070000Z.json': `${JSON.stringify(doc, null, 2)}\n` });
  afterAll(() => t.cleanup());
  const run = loadProject(t.dir)[0]!;
  const g = runGraph(run);
  const node = (id: string) => g.nodes.find((n) => n.id === id)!;

  it('should draw units and dependencies, a cycle marked and an unknown dependency as a ghost', () => {
    expect(g.shape).toBe('dependencies');
    expect(g.nodes.map((n) => [n.id, n.kind])).toEqual([
      ['base', 'unit'],
      ['next', 'unit'],
      ['cyc-a', 'unit'],
      ['cyc-b', 'unit'],
      ['after', 'unit'],
      ['lost', 'unit'],
      ['ghost', 'ghost'],
    ]);
    expect(g.cycles).toEqual([['cyc-a', 'cyc-b']]);
    expect(g.unknown).toEqual(['ghost']);
    expect(g.edges.filter((e) => e.cycle).map((e) => `${e.from}>${e.to}`)).toEqual([
      'cyc-b>cyc-a',
      'cyc-a>cyc-b',
    ]);
    expect(g.edges.filter((e) => e.unknown).map((e) => `${e.from}>${e.to}`)).toEqual(['ghost>lost']);
    expect(node('after').inCycle).toBe(false);
  });

  it("should colour every node as the run's resume plan says, blocked ones with what blocks them", () => {
    const plan = run.resume;
    for (const n of g.nodes.filter((x) => x.kind === 'unit')) {
      const where = plan.skip.some((x) => x.id === n.id)
        ? 'skip'
        : plan.runNext.some((x) => x.id === n.id)
          ? 'run-next'
          : plan.blocked.some((x) => x.id === n.id)
            ? 'blocked'
            : 'none';
      expect(n.plan, n.id).toBe(where);
    }
    expect(node('base').plan).toBe('skip');
    expect(node('next').plan).toBe('run-next');
    expect(node('lost')).toMatchObject({ plan: 'blocked', blockedBy: 'ghost' });
    expect(node('after')).toMatchObject({ plan: 'blocked' });
    expect(node('after').blockedBy).toBe(
      (plan.native as { dep_blocked: Record<string, string> }).dep_blocked.after,
    );
  });

  it('should chain phases or stages in order, and draw nothing for a run without a shape', () => {
    const ac = runGraph(
      testRun('ac', {
        dialect: 'agent-context',
        units: [],
        phases: [
          { id: '001:plan', status: 'done', tone: 'ok' },
          { id: '001:execute', status: 'current', tone: 'active', current: true },
        ],
        resume: {
          summary: '',
          skip: [{ id: '001:plan', reason: 'completed' }],
          runNext: [{ id: '001:execute', reason: 'current' }],
          blocked: [],
          needsPerson: [],
          notes: [],
        },
      }),
    );
    expect(ac.shape).toBe('phases');
    expect(ac.nodes.map((n) => n.plan)).toEqual(['skip', 'run-next']);
    expect(ac.edges).toEqual([{ from: '001:plan', to: '001:execute', cycle: false, unknown: false }]);
    expect(runGraph(testRun('t', { dialect: 'team' })).shape).toBe('none');
  });
});
