import { relative, resolve } from 'node:path';
import { createTreeContext } from '../check/validate-files.js';
import type { DialectId } from '../dialects/dialect.js';
import { dialects } from '../dialects/registry.js';
import type { RunView } from './run-view.js';

export interface LoadProjectOptions {
  /** Only these dialects. */
  readonly dialects?: readonly DialectId[];
  readonly onProgress?: (message: string) => void;
}

/** Newest first: by updatedAt, then createdAt, then id. */
export function compareRunsNewestFirst(a: RunView, b: RunView): number {
  const ta = a.updatedAt ?? a.createdAt ?? '';
  const tb = b.updatedAt ?? b.createdAt ?? '';
  if (ta !== tb) return ta < tb ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Every run of every dialect under a project directory, as RunViews, newest first. This is the one entry point
 * both `ckpt status` and the viewer use, so they show the same facts.
 */
export function loadProject(projectDir: string, opts: LoadProjectOptions = {}): RunView[] {
  const dir = resolve(projectDir);
  const display = (abs: string) => relative(dir, abs).replace(/\\/g, '/') || '.';
  const ctx = createTreeContext({}, display);
  const runs: RunView[] = [];
  for (const d of dialects) {
    if (opts.dialects && !opts.dialects.includes(d.id)) continue;
    if (!d.discover || !d.loadRunViews) continue;
    for (const root of d.discover(dir)) {
      opts.onProgress?.(`reading ${d.id} runs in ${display(root)}`);
      runs.push(...d.loadRunViews(root, ctx));
    }
  }
  return runs.sort(compareRunsNewestFirst);
}

/** Finds one run by exact id, then by unique id prefix. */
export function findRun(runs: readonly RunView[], id: string): RunView | undefined {
  const exact = runs.filter((r) => r.id === id);
  if (exact.length > 0) return exact[0];
  const prefixed = runs.filter((r) => r.id.startsWith(id));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}
