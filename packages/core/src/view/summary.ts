import type { Attention } from '../attention/reasons.js';
import type { DialectId } from '../dialects/dialect.js';
import type { Finding } from '../findings/finding.js';
import type { RunView, Tone } from './run-view.js';

/** Findings per severity. */
export interface ProblemCounts {
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
}

/**
 * The facts of a run that fit on one line: what `ckpt status` prints per run and the viewer's runs page shows.
 * Derived from a RunView only, so both front-ends agree.
 */
export interface RunSummary {
  readonly id: string;
  readonly dialect: DialectId;
  readonly title: string;
  readonly status: string;
  readonly tone: Tone;
  readonly attention: Attention;
  readonly root: string;
  readonly createdAt?: string;
  readonly updatedAt?: string;
  readonly finishedAt?: string;
  readonly counts: Readonly<Record<string, number>>;
  /** The tone of each status in `counts` (for colouring a progress bar by state). */
  readonly tones: Readonly<Record<string, Tone>>;
  readonly progress: { readonly done: number; readonly total: number };
  readonly problems: ProblemCounts;
  /** The resume plan's one-line summary. */
  readonly resume: string;
}

/** Counts findings per severity. */
export function problemCounts(findings: readonly Finding[]): ProblemCounts {
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  for (const f of findings) {
    if (f.severity === 'error') errors++;
    else if (f.severity === 'warning') warnings++;
    else infos++;
  }
  return { errors, warnings, infos };
}

/** The tone of each unit status of a run (the first unit of a status decides). */
export function statusTones(run: RunView): Record<string, Tone> {
  const tones: Record<string, Tone> = Object.create(null);
  for (const u of run.units) if (!(u.status in tones)) tones[u.status] = u.tone;
  return { ...tones };
}

/** The one-line facts of a run. */
export function summarizeRun(run: RunView): RunSummary {
  return {
    id: run.id,
    dialect: run.dialect,
    title: run.title,
    status: run.status,
    tone: run.tone,
    attention: run.attention,
    root: run.root,
    ...(run.createdAt !== undefined ? { createdAt: run.createdAt } : {}),
    ...(run.updatedAt !== undefined ? { updatedAt: run.updatedAt } : {}),
    ...(run.finishedAt !== undefined ? { finishedAt: run.finishedAt } : {}),
    counts: run.counts,
    tones: statusTones(run),
    progress: run.progress,
    problems: problemCounts(run.findings),
    resume: run.resume.summary,
  };
}

/** A one-line description of a run's problems, e.g. `2 errors, 1 warning`; `''` when there are none. */
export function describeProblems(p: ProblemCounts): string {
  const parts: string[] = [];
  if (p.errors > 0) parts.push(`${p.errors} error${p.errors === 1 ? '' : 's'}`);
  if (p.warnings > 0) parts.push(`${p.warnings} warning${p.warnings === 1 ? '' : 's'}`);
  if (p.infos > 0) parts.push(`${p.infos} info`);
  return parts.join(', ');
}
