import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProject } from '../view/load-project.js';
import { testRun } from '../view/test/test-run.js';
import { needsPerson } from './attention.js';
import type { Attention } from './reasons.js';
import { compareForTriage, triageGroup, triageOrder } from './triage.js';

const sample = resolve(import.meta.dirname, '../../../../test-fixtures/sample-project');
const level = (l: Attention['level']): Attention => ({ level: l, reasons: [] });

describe('triage order', () => {
  it('should put runs that need a person first (blocked before action), then running, then the rest, newest first in each', () => {
    const runs = [
      testRun('old-done', { tone: 'ok', updatedAt: '2026-11-20T00:00:00Z', attention: level('none') }),
      testRun('running', { tone: 'active', updatedAt: '2026-11-21T00:00:00Z', attention: level('info') }),
      testRun('new-done', { tone: 'ok', updatedAt: '2026-11-25T00:00:00Z', attention: level('info') }),
      testRun('action-old', {
        tone: 'warning',
        updatedAt: '2026-11-01T00:00:00Z',
        attention: level('action'),
      }),
      testRun('blocked', { tone: 'error', updatedAt: '2026-10-01T00:00:00Z', attention: level('blocked') }),
      testRun('action-new', {
        tone: 'active',
        updatedAt: '2026-11-10T00:00:00Z',
        attention: level('action'),
      }),
    ];
    expect(triageOrder(runs).map((r) => r.id)).toEqual([
      'blocked',
      'action-new',
      'action-old',
      'running',
      'new-done',
      'old-done',
    ]);
    expect(runs.map((r) => triageGroup(r))).toEqual([
      'rest',
      'running',
      'rest',
      'attention',
      'attention',
      'attention',
    ]);
  });

  it('should be a total order (ties broken by dialect and id) that leaves its input untouched', () => {
    const a = testRun('a', { updatedAt: '2026-11-20T00:00:00Z' });
    const b = testRun('b', { updatedAt: '2026-11-20T00:00:00Z' });
    const input = [b, a];
    expect(triageOrder(input)).toEqual([a, b]);
    expect(input).toEqual([b, a]);
    expect(compareForTriage(a, a)).toBe(0);
  });

  it('should list the sample project with its runs that need a person first', () => {
    const runs = triageOrder(loadProject(sample, { now: Date.parse('2026-11-29T09:00:00Z') }));
    const need = runs.filter((r) => needsPerson(r.attention)).length;
    expect(need).toBeGreaterThan(0);
    expect(runs.slice(0, need).every((r) => needsPerson(r.attention))).toBe(true);
    expect(runs.slice(need).some((r) => needsPerson(r.attention))).toBe(false);
  });
});

describe('what the run page shows', () => {
  const runs = loadProject(sample, { now: Date.parse('2026-11-29T09:00:00Z') });

  it('should list ulpi phases in the order they ran, not by name', () => {
    const oauth = runs.find((r) => r.id === 'add-oauth-20261129T071300Z')!;
    expect(oauth.phases.map((p) => p.id)).toEqual(['plan', 'build']);
  });

  it('should never show a resumable stage with an error finding about its keys as a green done', () => {
    const run = runs.find((r) => r.id === 'rotate-api-keys-20261128T143000Z')!;
    const m2 = run.units.find((u) => u.id === 'M2')!;
    expect(run.findings.some((f) => f.severity === 'error' && f.pointer === '/M2_DONE')).toBe(true);
    expect(m2.status).toBe('done-with-errors');
    expect(m2.tone).toBe('error');
    expect(m2.note).toContain('M2_DONE=1');
    expect(run.units.find((u) => u.id === 'M1')!.tone).toBe('ok');
  });
});
