import type { Dialect } from '../dialect.js';

/** The `team` dialect: OpenCode Team run checkpoints under `.team/runs/`. */
export const teamDialect: Dialect = {
  id: 'team',
  title: 'OpenCode Team run checkpoints',
  codes: {},
};
