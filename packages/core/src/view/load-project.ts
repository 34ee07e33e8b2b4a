import type { DialectId } from '../dialects/dialect.js';
import { createProjectIndex, type LoadProjectOptions } from './project-index.js';
import type { RunView } from './run-view.js';

export {
  compareRunsNewestFirst,
  discoverRoots,
  displayUnder,
  type LoadProjectOptions,
  type ProjectRoot,
} from './project-index.js';

/**
 * Every run of every dialect under a project directory, as RunViews, newest first. This is the one entry point
 * both `ckpt status` and the viewer use, so they show the same facts: it is a project index (project-index.ts)
 * loaded once; the viewer keeps one and refreshes it.
 */
export function loadProject(projectDir: string, opts: LoadProjectOptions = {}): RunView[] {
  return createProjectIndex(projectDir, { ...opts, signatures: false }).load().runs;
}

/** Finds one run by exact id, then by unique id prefix. */
export function findRun(runs: readonly RunView[], id: string): RunView | undefined {
  const m = matchRun(runs, id);
  return m.kind === 'found' ? m.run : undefined;
}

/** The outcome of looking a run up by id: found, ambiguous (with the candidates) or not found. */
export type RunMatch =
  | { readonly kind: 'found'; readonly run: RunView }
  | { readonly kind: 'ambiguous'; readonly candidates: readonly RunView[] }
  | { readonly kind: 'none' };

/**
 * Looks a run up the way `ckpt status --run` does: `<dialect>/<id>` or `<id>`, exact id first, then a unique
 * prefix. An exact id shared by runs of two dialects is ambiguous unless the dialect is given.
 */
export function matchRun(runs: readonly RunView[], query: string, dialect?: DialectId): RunMatch {
  let pool = dialect ? runs.filter((r) => r.dialect === dialect) : runs;
  let id = query;
  const slash = query.indexOf('/');
  if (slash > 0 && !dialect) {
    const d = query.slice(0, slash);
    if (runs.some((r) => r.dialect === d)) {
      pool = runs.filter((r) => r.dialect === d);
      id = query.slice(slash + 1);
    }
  }
  const pick = (found: readonly RunView[]): RunMatch | undefined =>
    found.length === 1
      ? { kind: 'found', run: found[0]! }
      : found.length > 1
        ? { kind: 'ambiguous', candidates: found }
        : undefined;
  return (
    pick(pool.filter((r) => r.id === id)) ?? pick(pool.filter((r) => r.id.startsWith(id))) ?? { kind: 'none' }
  );
}
