import type { Dialect } from '../dialect.js';
import { agentContextCodes } from './codes.js';
import { agentContextRootOf, discoverAgentContextRoots } from './load.js';
import { checkAgentContextDocument, filterAgentContextSchemaFindings } from './rules.js';
import { agentContextSpecSection } from './spec.js';
import { checkAgentContextTree } from './tree-rules.js';
import { loadAgentContextRunViews } from './view.js';

const KINDS = {
  orchestrator: 'agent-context/orchestrator-state',
  task: 'agent-context/task-state',
  iteration: 'agent-context/iteration',
  decision: 'agent-context/decision',
} as const;

/** Tells the four document kinds apart by content (for files named explicitly outside the usual paths). */
function detectAgentContextKind(value: unknown, candidates: readonly string[]): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const sv = typeof v.schemaVersion === 'string' ? v.schemaVersion : '';
  let kind: string | undefined;
  if (
    sv.startsWith('opencode-plusplus.orchestrator-state') ||
    ('currentPhase' in v && 'completedPhases' in v)
  )
    kind = KINDS.orchestrator;
  else if (
    sv === 'opencode-plusplus.iteration.v1' ||
    (v.kind === 'iteration' && sv.startsWith('opencode-plusplus.'))
  )
    kind = KINDS.iteration;
  else if (
    sv === 'opencode-plusplus.decision.v1' ||
    (v.kind === 'decision' && sv.startsWith('opencode-plusplus.'))
  )
    kind = KINDS.decision;
  else if ('taskId' in v && 'nextAction' in v && 'allowedActions' in v) kind = KINDS.task;
  return kind && candidates.includes(kind) ? kind : undefined;
}

/** The `agent-context` dialect: OpenCode++ runtime and orchestrator state under `.agent-context/`. */
export const agentContextDialect: Dialect = {
  id: 'agent-context',
  title: 'OpenCode++ runtime state',
  codes: agentContextCodes,
  specSection: agentContextSpecSection(),
  detectKind: detectAgentContextKind,
  checkDocument: checkAgentContextDocument,
  filterSchemaFindings: (schema, semantic) => filterAgentContextSchemaFindings(schema, semantic),
  rootOf: (absPath) => agentContextRootOf(absPath),
  checkTree: checkAgentContextTree,
  discover: (projectDir) => discoverAgentContextRoots(projectDir),
  loadRunViews: loadAgentContextRunViews,
};
