import type { Attention } from '../attention/reasons.js';
import type { DialectId } from '../dialects/dialect.js';
import type { Finding } from '../findings/finding.js';

/**
 * Version of the JSON that `ckpt status --json`, `ckpt resume --json` and the viewer's /api/ return.
 * 2: `needsAttention` (a boolean each dialect computed) became `attention: {level, reasons}`, computed in core.
 */
export const RUN_VIEW_FORMAT_VERSION = 2;

/** The colour family of a status, shared by the CLI and the viewer. */
export type Tone = 'ok' | 'active' | 'warning' | 'error' | 'neutral';

/** A file a run was read from. */
export interface SourceFile {
  /** Path relative to the project directory, `/` separators. */
  readonly path: string;
  readonly kind: string | undefined;
}

export interface PhaseView {
  readonly id: string;
  readonly status: string;
  readonly tone: Tone;
  readonly current?: boolean;
  readonly startedAt?: string;
  readonly finishedAt?: string;
  readonly note?: string;
}

export interface AttemptView {
  readonly attempt: number;
  readonly status: string;
  readonly tone: Tone;
  readonly startedAt?: string;
  readonly endedAt?: string;
  readonly durationMs?: number;
  readonly agent?: string;
  readonly retryOf?: number;
  readonly reason?: string;
  readonly evidence?: string;
  readonly next?: string;
  readonly artifacts?: readonly string[];
  /** Source files of this attempt's events. */
  readonly sources?: readonly string[];
}

/** A task (team), unit (ulpi), stage (resumable) or task state (agent-context). */
export interface UnitView {
  readonly id: string;
  readonly status: string;
  readonly tone: Tone;
  readonly stage?: string;
  readonly agent?: string;
  readonly dependsOn: readonly string[];
  readonly note?: string;
  readonly evidence?: string;
  readonly next?: string;
  readonly inputs: readonly string[];
  readonly artifacts: readonly string[];
  readonly startedAt?: string;
  readonly finishedAt?: string;
  readonly updatedAt?: string;
  readonly durationMs?: number;
  readonly attempts: readonly AttemptView[];
  /** Checklist items or other sub-steps with their own done flag. */
  readonly checks?: readonly { readonly id: string; readonly done: boolean }[];
}

export interface ApprovalView {
  readonly stage: string;
  readonly artifact: string;
  readonly by: string;
  readonly approvedAt: string;
  readonly note?: string;
  readonly state: 'valid' | 'stale: artifact changed' | 'stale: artifact missing';
  readonly source: string;
}

export interface ResumeItem {
  readonly id: string;
  readonly reason: string;
}

/** What resuming the run will do: skip, run next, blocked (and why), and what needs a person first. */
export interface ResumePlan {
  readonly summary: string;
  readonly skip: readonly ResumeItem[];
  readonly runNext: readonly ResumeItem[];
  readonly blocked: readonly ResumeItem[];
  readonly needsPerson: readonly ResumeItem[];
  /** A runnable resume command, when the run persisted one (never fabricated). */
  readonly command?: { readonly argv: readonly string[]; readonly shell: string };
  readonly notes: readonly string[];
  /** Dialect-specific data of the plan (e.g. ulpi's `{skip, eligible, dep_blocked}`), as the original prints it. */
  readonly native?: unknown;
}

/** What a dialect's loader knows about a run; core adds its attention (`withAttention`) to make a RunView. */
export interface RunFacts {
  readonly id: string;
  readonly dialect: DialectId;
  readonly title: string;
  readonly status: string;
  readonly tone: Tone;
  /** Directory of the run relative to the project, `/` separators. */
  readonly root: string;
  readonly sources: readonly SourceFile[];
  readonly createdAt?: string;
  readonly updatedAt?: string;
  readonly finishedAt?: string;
  readonly phases: readonly PhaseView[];
  readonly units: readonly UnitView[];
  readonly approvals: readonly ApprovalView[];
  /** Units per status. */
  readonly counts: Readonly<Record<string, number>>;
  readonly progress: { readonly done: number; readonly total: number };
  readonly findings: readonly Finding[];
  readonly resume: ResumePlan;
  /** Key facts particular to the dialect (launch kind, resume window, convergence...), label and value. */
  readonly details: readonly { readonly label: string; readonly value: string }[];
}

/** The one normalized model of a run that every front-end renders: a dialect's facts plus core's attention. */
export interface RunView extends RunFacts {
  /** Whether and why the run needs a person, from one table in core (`attentionOf`). */
  readonly attention: Attention;
}
