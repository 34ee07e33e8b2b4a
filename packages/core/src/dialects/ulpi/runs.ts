import { relative, resolve } from 'node:path';
import { createTreeContext } from '../../check/validate-files.js';
import type { RunFacts } from '../../view/run-view.js';
import { findUlpiRunsDir } from './load.js';
import { ulpiRunViews } from './view-runs.js';

/** The runs of the `.ulpi/runs` found from a directory. */
export interface UlpiRuns {
  /** The runs directory, or undefined when no ancestor holds one. */
  readonly dir: string | undefined;
  /** Newest first; unreadable files are runs with status `unreadable`. */
  readonly runs: RunFacts[];
}

/**
 * Loads the runs of the `.ulpi/runs` directory found by walking up from `from` (as run-status does), or of `dir`
 * when given. Paths in the views are relative to `from`.
 */
export function loadUlpiRuns(from: string, dir?: string): UlpiRuns {
  const base = resolve(from);
  const runsDir = dir ? resolve(dir) : findUlpiRunsDir(base);
  if (!runsDir) return { dir: undefined, runs: [] };
  const ctx = createTreeContext({}, (abs) => relative(base, abs).replace(/\\/g, '/') || '.');
  return { dir: runsDir, runs: ulpiRunViews(runsDir, ctx) };
}
