// A TypeScript ES module that uses the published @ckpt/schemas: generated types, createValidator, catalog.
import { catalog, createValidator, kinds, type TeamTaskEvent } from '@ckpt/schemas';

const started: TeamTaskEvent = {
  event: 'task_started',
  at: '2026-10-28T13:11:00Z',
  run_id: '20261028T131016577943Z-20fe61',
  task_id: 'build-fe-20261028T1300Z',
  stage: 'build',
  agent: 'fe',
  attempt: 1,
  status: 'running',
  session: 'ses_5c1e9b4d7ffeHk2sPq9wLx1CaV',
  parent_session: 'ses_5c1e93a0bffeW2nqK8dTz4LpXh',
  inputs: ['.team/06-architecture.md'],
  artifacts: [],
  evidence: '',
  next: '',
};
// @ts-expect-error attempt is a number in the generated type (fails to compile if the types were `any`)
const wrongType: TeamTaskEvent = { ...started, attempt: 'one' };

const validate = createValidator('team/task-event');
const results = {
  module: 'esm',
  valid: validate(started),
  invalid: validate({ ...started, status: 'done' }),
  wrongTypeValid: validate(wrongType),
  errorKeyword: validate.errors?.[0]?.keyword,
  kinds: kinds.length,
  catalogEntries: catalog.schemas.length,
};
console.log(JSON.stringify(results));
