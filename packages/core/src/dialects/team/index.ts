import type { Dialect, TreeContext } from '../dialect.js';
import { teamCodes } from './codes.js';
import { discoverTeamRoots, teamRootOf } from './load.js';
import { checkTeamDocument, filterTeamSchemaFindings } from './rules.js';
import { loadTeamRunsAt, teamRunViews } from './runs.js';
import { teamTreeRecord } from './tree-rules.js';
import { checkTeamRoot, checkTeamRun, isTeamRunDir } from './tree-units.js';

const KINDS = { run: 'team/run', event: 'team/task-event', approval: 'team/approval' } as const;

/** Tells run.json, events and approvals apart by content (for files named outside the usual paths). */
function detectTeamKind(value: unknown, candidates: readonly string[]): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const kind =
    v.event === 'task_started' || v.event === 'task_finished'
      ? KINDS.event
      : 'sha256' in v && 'artifact' in v
        ? KINDS.approval
        : 'run_id' in v && 'profile' in v
          ? KINDS.run
          : undefined;
  return kind && candidates.includes(kind) ? kind : undefined;
}

/** The `team` dialect: OpenCode Team run checkpoints under `.team/runs/`. */
export const teamDialect: Dialect = {
  id: 'team',
  title: 'OpenCode Team run checkpoints',
  codes: teamCodes,
  detectKind: detectTeamKind,
  checkDocument: (doc) => checkTeamDocument(doc),
  filterSchemaFindings: (schema, semantic) => filterTeamSchemaFindings(schema, semantic),
  treeRecord: teamTreeRecord,
  rootOf: (absPath, kind) => (kind?.startsWith('team/') ? teamRootOf(absPath) : undefined),
  isUnitDir: isTeamRunDir,
  checkUnit: (runDir: string, ctx: TreeContext, pass) => checkTeamRun(runDir, ctx, pass),
  checkTree: (root: string, ctx: TreeContext, units) => checkTeamRoot(root, ctx, units ?? new Map()),
  discover: (projectDir) => discoverTeamRoots(projectDir),
  loadRunViews: (root: string, ctx: TreeContext) => teamRunViews(loadTeamRunsAt(root, ctx), ctx.display),
};
