import type { Attention } from '../attention/reasons.js';
import { triageOrder } from '../attention/triage.js';
import type { DialectId } from '../dialects/dialect.js';
import { type ResumePlan, RUN_VIEW_FORMAT_VERSION, type RunView, type Tone } from './run-view.js';
import { type RunSummary, summarizeRun } from './summary.js';

/** `ckpt status --json` and the viewer's `GET /api/runs`: every run, in triage order (`compareForTriage`). */
export interface RunsDocument {
  readonly formatVersion: number;
  readonly runs: readonly RunView[];
}

/** `ckpt status --run <id> --json` and `GET /api/runs/<dialect>/<id>`. */
export interface RunDocument {
  readonly formatVersion: number;
  readonly run: RunView;
}

/** `ckpt resume --run <id> --json` and `GET /api/runs/<dialect>/<id>/resume`. */
export interface ResumeDocument {
  readonly formatVersion: number;
  readonly run: {
    readonly id: string;
    readonly dialect: DialectId;
    readonly title: string;
    readonly status: string;
    readonly tone: Tone;
  };
  /** The run's attention (the same as in its RunView); `--exit-status` exits 1 when its level is action or blocked. */
  readonly attention: Attention;
  readonly resume: ResumePlan;
}

/** `GET /api/summaries`: the runs page's one-line facts, without units (cheap for huge runs), in triage order. */
export interface SummariesDocument {
  readonly formatVersion: number;
  readonly runs: readonly RunSummary[];
}

/** The document of every run, in triage order (needs a person, then running, then the rest; newest first in each). */
export function runsDocument(runs: readonly RunView[]): RunsDocument {
  return { formatVersion: RUN_VIEW_FORMAT_VERSION, runs: triageOrder(runs) };
}

/** The document of one run. */
export function runDocument(run: RunView): RunDocument {
  return { formatVersion: RUN_VIEW_FORMAT_VERSION, run };
}

/** The document of one run's resume plan. */
export function resumeDocument(run: RunView): ResumeDocument {
  return {
    formatVersion: RUN_VIEW_FORMAT_VERSION,
    run: { id: run.id, dialect: run.dialect, title: run.title, status: run.status, tone: run.tone },
    attention: run.attention,
    resume: run.resume,
  };
}

/** The document of every run's summary, in triage order. */
export function summariesDocument(runs: readonly RunView[]): SummariesDocument {
  return { formatVersion: RUN_VIEW_FORMAT_VERSION, runs: triageOrder(runs).map(summarizeRun) };
}
