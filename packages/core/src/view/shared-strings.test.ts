import { describe, expect, it } from 'vitest';
import { SharedStrings } from './shared-strings.js';

describe('SharedStrings', () => {
  it('should leave every value as it was (members, order, arrays), only which copy of a string is kept', () => {
    const values: unknown[] = [
      { event: 'task_started', run_id: 'r1', stage: 'build', inputs: ['a.md', 'b.md'], attempt: 1 },
      { event: 'task_finished', run_id: 'r1', stage: 'build', inputs: ['a.md', 3, null], next: '' },
      { event: 'task_started', run_id: 'r2', stage: 'qa', inputs: 'not a list', nested: { run_id: 'r1' } },
      { event: 'task_finished', run_id: 'r1', inputs: [], __proto__x: 'x', 'odd key': ['r1', 'r1'] },
      ['r1', 'r1'],
      'r1',
      null,
      42,
      Object.assign(Object.create(null), { run_id: 'r1' }),
    ];
    const before = JSON.stringify(values);
    const keys = values.map((v) => (v !== null && typeof v === 'object' ? Object.keys(v) : []));
    const strings = new SharedStrings();
    for (const v of values) strings.share(v);
    expect(JSON.stringify(values)).toBe(before);
    expect(values.map((v) => (v !== null && typeof v === 'object' ? Object.keys(v) : []))).toEqual(keys);
  });

  it('should give back the kind it is given', () => {
    const strings = new SharedStrings();
    for (const k of ['team/task-event', 'team/task-event', undefined, 'team/run', 'team/task-event'])
      expect(strings.kind(k)).toBe(k);
  });
});
