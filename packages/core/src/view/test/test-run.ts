import type { DialectId } from '../../dialects/dialect.js';
import type { RunView, UnitView } from '../run-view.js';

/** A small RunView for tests, with the given fields replaced. */
export function testRun(id: string, fields: Partial<RunView> & { dialect?: DialectId } = {}): RunView {
  const units: UnitView[] = [
    unit('a', 'done', 'ok'),
    unit('b', 'failed', 'error'),
    unit('c', 'pending', 'neutral'),
  ];
  return {
    id,
    dialect: 'ulpi',
    title: `run ${id}`,
    status: 'running',
    tone: 'active',
    attention: { level: 'none', reasons: [] },
    root: '.ulpi/runs',
    sources: [{ path: `.ulpi/runs/${id}.json`, kind: 'ulpi/status-v2' }],
    createdAt: '2026-11-28T10:00:00Z',
    updatedAt: '2026-11-28T11:00:00Z',
    phases: [],
    units,
    approvals: [],
    counts: { done: 1, failed: 1, pending: 1 },
    progress: { done: 1, total: 3 },
    findings: [],
    resume: {
      summary: 'run b next',
      skip: [{ id: 'a', reason: 'done' }],
      runNext: [{ id: 'b', reason: 'failed' }],
      blocked: [{ id: 'c', reason: 'waits for b' }],
      needsPerson: [],
      notes: [],
    },
    details: [],
    ...fields,
  };
}

function unit(id: string, status: string, tone: UnitView['tone']): UnitView {
  return { id, status, tone, dependsOn: [], inputs: [], artifacts: [], attempts: [] };
}
