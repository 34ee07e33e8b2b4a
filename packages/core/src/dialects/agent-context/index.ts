import type { Dialect } from '../dialect.js';

/** The `agent-context` dialect: OpenCode++ runtime and orchestrator state under `.agent-context/`. */
export const agentContextDialect: Dialect = {
  id: 'agent-context',
  title: 'OpenCode++ runtime state',
  codes: {},
};
