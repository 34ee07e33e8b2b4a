// The documents the differential cases start from. F is the status file every case works on; paths are relative
// to the case's scratch folder.
export const F = '.ulpi/runs/r.json';
export const T0 = '2026-01-05T10:00:00Z';
export const T1 = '2026-01-05T11:00:00Z';

export const unit = (status, extra = {}) => ({
  status,
  dependsOn: [],
  note: '',
  createdAt: T0,
  updatedAt: T0,
  ...extra,
});

/** A v2 document as init writes it, with overrides. */
export const doc = (over = {}) => ({
  schemaVersion: 2,
  id: 'r',
  task: 'demo',
  status: 'running',
  createdAt: T0,
  updatedAt: T1,
  phases: {},
  units: { a: unit('pending'), b: unit('pending', { dependsOn: ['a'] }) },
  openItems: [],
  resolvedItems: [],
  result: null,
  ...over,
});

export const allDone = {
  a: unit('done', { finishedAt: T1 }),
  b: unit('done', { dependsOn: ['a'], finishedAt: T1 }),
};
export const v1 = {
  schemaVersion: 1,
  id: 'lint-sweep-20260812T140210Z',
  status: 'running',
  units: { a: { status: 'done', dependsOn: [] }, b: { status: 'pending', dependsOn: ['a'] } },
  updatedAt: '20260812T140210Z',
};
export const sha = (c) => c.repeat(64);
/** A coordinator pipeline whose receipt is bound to its intake snapshot (finalize done accepts it). */
export const pipeline = (over = {}, cover = {}) => ({
  intakePath: '.ulpi/intake/r.json',
  intakeFileSha: sha('a'),
  intakeScopeSha: sha('b'),
  intakeSelection: 'all',
  intakeScope: [
    { id: 's1', title: 'Login', source: 'issue#1' },
    { id: 's2', title: 'Logout', source: 'issue#2' },
  ],
  scopeCoverage: { total: 2, covered: ['s1'], dropped: ['s2'], uncovered: [], errors: [], ...cover },
  ...over,
});
export const finalizable = (over = {}) => doc({ units: allDone, ...over });
export const fin = (name, description, d, args = ['finalize', F, 'done']) => ({
  name,
  description,
  args,
  files: { [F]: d },
});
