import { existsSync, statSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';
import { createTreeContext } from '../../check/validate-files.js';
import { CkptError } from '../../errors.js';
import type { RunFacts } from '../../view/run-view.js';
import { runRootFindings } from './index.js';
import { discoverRunRoots, isRunRoot, loadRunRoot } from './load.js';
import type { ResumableResume } from './resume.js';
import { runRootView } from './view.js';

/** Where a writer finds its run: `--run` (a path, or a run-root name under `<configDir>/reports/`), else the config dir. */
export interface RunSelection {
  readonly run?: string;
  readonly configDir?: string;
}

/**
 * Resolves the run root a writer acts on. With `run`: that folder (or `<configDir>/reports/<run>`). Without: the
 * only unfinished run under the config dir; several (or none) is a usage error naming them.
 */
export function resolveResumableRunRoot(sel: RunSelection, cwd = process.cwd()): string {
  if (sel.run) {
    const candidates = [
      resolve(cwd, sel.run),
      ...(sel.configDir ? [resolve(cwd, sel.configDir, 'reports', sel.run)] : []),
    ];
    for (const c of candidates) if (existsSync(c) && statSync(c).isDirectory() && isRunRoot(c)) return c;
    throw new CkptError('NOT_FOUND', `no run root at ${sel.run} (a folder holding state.env under reports/)`);
  }
  if (!sel.configDir)
    throw new CkptError('USAGE', 'no run given: pass --run <root>, --config-dir, or set OPENCODE_CONFIG_DIR');
  const roots = discoverRunRoots(resolve(cwd, sel.configDir));
  const open = resumableStatus(resolve(cwd, sel.configDir)).filter((s) => s.resume.window !== 'complete');
  if (open.length === 1) return open[0]!.dir;
  if (open.length === 0 && roots.length === 1) return roots[0]!;
  if (roots.length === 0) throw new CkptError('NOT_FOUND', `no run roots under ${sel.configDir}/reports`);
  throw new CkptError(
    'USAGE',
    `${open.length === 0 ? 'no unfinished run' : 'several unfinished runs'} under ${sel.configDir}: pass --run <root> (${(open.length ? open : roots.map((d) => ({ dir: d }))).map((r) => basename(r.dir)).join(', ')})`,
  );
}

/** One run root's status: its RunView and the resume decision. */
export interface ResumableStatus {
  readonly dir: string;
  readonly view: RunFacts;
  readonly resume: ResumableResume;
}

/** The status of every run root in `dir` (a run root itself, a config dir or a project), oldest first. */
export function resumableStatus(dir: string): ResumableStatus[] {
  const base = resolve(dir);
  const display = (abs: string) => relative(base, abs).replace(/\\/g, '/') || '.';
  const ctx = createTreeContext({}, display);
  const roots = isRunRoot(base) ? [base] : discoverRunRoots(base);
  return roots.map((r) => {
    const root = loadRunRoot(r, ctx);
    const findings = runRootFindings(root);
    const view = runRootView(root, display, findings);
    return { dir: r, view, resume: view.resume.native as ResumableResume };
  });
}
