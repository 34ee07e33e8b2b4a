import { relative, resolve } from 'node:path';
import { type DialectId, loadProject, matchRun, type RunView } from '@ckpt/core';
import { createProgress } from '../../output/progress.js';
import { InputError, UsageError } from '../../usage-error.js';
import { noRunsError, projectDir } from './project-dir.js';

/**
 * Every run under the project folder (the one given, or the nearest one holding runs at or above the current
 * folder), with progress on stderr when it takes more than a moment on a TTY. No runs at all is an error (exit 3)
 * naming the folder. `summariesOnly`: the caller reads only each run's summary (`summarizeRun`) and attention
 * (`LoadProjectOptions.summariesOnly`).
 */
export function loadRuns(
  given: string | undefined,
  dialect: string | undefined,
  quiet = false,
  showSecrets = false,
  summariesOnly = false,
): RunView[] {
  const project = projectDir(given);
  const progress = createProgress('loading', Boolean(process.stderr.isTTY) && !quiet);
  const runs = loadProject(project.dir, {
    ...(dialect ? { dialects: [dialect as DialectId] } : {}),
    onProgress: (m) => progress.message(m),
    // A symlink out of the project is never read (io/outside-project), as in the viewer.
    confineTo: project.dir,
    showSecrets,
    summariesOnly,
  });
  progress.done();
  if (runs.length === 0) throw noRunsError(project, dialect);
  return runs;
}

/**
 * Where the commands of attention reasons run (they are relative to the project folder): the folder as the user
 * would type it from here, or undefined when it is the current folder.
 */
export function commandsFrom(given: string | undefined, cwd = process.cwd()): string | undefined {
  const rel = relative(cwd, resolve(cwd, projectDir(given, cwd).dir)).replace(/\\/g, '/');
  return rel === '' ? undefined : rel;
}

/** The run a `--run` flag names; a one-line error (exit 3 not found, 2 ambiguous) otherwise. */
export function pickRun(runs: readonly RunView[], query: string, dialect?: string): RunView {
  const m = matchRun(runs, query, dialect as DialectId | undefined);
  if (m.kind === 'found') return m.run;
  if (m.kind === 'ambiguous') {
    const names = m.candidates.slice(0, 5).map((r) => `${r.dialect}/${r.id}`);
    throw new UsageError(
      `"${query}" matches ${m.candidates.length} runs (${names.join(', ')}${m.candidates.length > 5 ? ', ...' : ''}); give more of the id or <dialect>/<id>`,
    );
  }
  throw new InputError(
    `no run "${query}"${dialect ? ` of dialect ${dialect}` : ''}; \`ckpt status\` lists them`,
  );
}
