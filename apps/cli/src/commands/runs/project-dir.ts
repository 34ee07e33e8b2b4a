import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { InputError } from '../../usage-error.js';

/** Folders that hold one dialect's runs directly under a project folder. */
const MARKERS = ['.team', '.ulpi', '.agent-context'] as const;
/** Where resumable run roots (`<task>-<run-id>/state.env`) sit: a `reports/` folder, usually under .opencode/. */
const REPORTS = ['.opencode/reports', 'reports'] as const;

const isDir = (p: string) => statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;

function holdsRunRoot(reports: string): boolean {
  if (!isDir(reports)) return false;
  try {
    return readdirSync(reports, { withFileTypes: true }).some(
      (e) =>
        e.isDirectory() &&
        (existsSync(join(reports, e.name, 'state.env')) ||
          existsSync(join(reports, e.name, 'checklist.state.env'))),
    );
  } catch {
    return false;
  }
}

/** True when a folder holds runs itself: .team/, .ulpi/, .agent-context/, or a reports/ folder with a run root. */
export function holdsRuns(dir: string): boolean {
  return MARKERS.some((m) => isDir(join(dir, m))) || REPORTS.some((r) => holdsRunRoot(join(dir, r)));
}

/** The nearest folder holding runs, from `start` up to the file system's root (as git finds its repository). */
export function findProjectRoot(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (holdsRuns(dir)) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The folder a run command reads, and how it was chosen (for the message when it holds nothing). */
export interface ProjectDir {
  /** As given, or absolute when chosen from the current folder. */
  readonly dir: string;
  /** Given on the command line; found at or above the current folder; the current folder (nothing found). */
  readonly how: 'given' | 'found' | 'cwd';
}

/**
 * The folder given on the command line (relative to the current folder), else the nearest folder at or above the
 * current one that holds runs, else the current folder (whose subfolders are still searched).
 */
export function projectDir(given: string | undefined, cwd = process.cwd()): ProjectDir {
  if (given !== undefined) {
    const abs = resolve(cwd, given);
    if (!existsSync(abs)) throw new InputError(`cannot read "${given}": no such file or directory`);
    if (!statSync(abs).isDirectory()) throw new InputError(`"${given}" is not a directory`);
    return { dir: given, how: 'given' };
  }
  const found = findProjectRoot(cwd);
  return found ? { dir: found, how: 'found' } : { dir: resolve(cwd), how: 'cwd' };
}

/** The one-line error (exit 3) when a project folder holds no runs: it names the folder and where ckpt looked. */
export function noRunsError(project: ProjectDir, dialect?: string, cwd = process.cwd()): InputError {
  const what = dialect ? `no ${dialect} runs` : 'no runs';
  const where = resolve(cwd, project.dir);
  return new InputError(
    project.how !== 'cwd'
      ? `${what} in ${where} (searched it and its subfolders for .team/, .ulpi/, .agent-context/ and resumable reports/)`
      : `${what} in ${where}: no folder from there up to / holds .team/, .ulpi/, .agent-context/ or resumable reports/, and its subfolders hold none either; name the project folder: \`ckpt status <dir>\``,
  );
}
