import type { Dialect } from '../dialect.js';

/** The `resumable` dialect: Resumable Execution run roots of env files. */
export const resumableDialect: Dialect = {
  id: 'resumable',
  title: 'Resumable Execution run roots',
  codes: {},
};
