import type { DialectId } from '../dialects/dialect.js';
import { shellQuote } from '../text/shell-quote.js';

/** How much a run needs a person: nothing, worth knowing, something to do, or it cannot go on without one. */
export type AttentionLevel = 'none' | 'info' | 'action' | 'blocked';

/** One reason a run needs attention: what, what to do, and the command that does it (when there is one). */
export interface AttentionReason {
  readonly code: AttentionCode;
  readonly level: Exclude<AttentionLevel, 'none'>;
  readonly message: string;
  readonly hint: string;
  readonly command?: string;
}

/** Whether and why a run needs a person: computed once in core, read by every front end. */
export interface Attention {
  readonly level: AttentionLevel;
  readonly reasons: readonly AttentionReason[];
}

/** What a table entry's hint and command are built from. */
export interface ReasonSubject {
  readonly dialect: DialectId;
  readonly id: string;
  /** Directory of the run relative to the project. */
  readonly root: string;
  /** A file the reason is about (the stale lock, the unreadable file). */
  readonly file?: string;
}

interface ReasonEntry {
  readonly title: string;
  readonly hint: string;
  readonly command?: (s: ReasonSubject) => string;
}

/** A word shell-quoted only when it needs it (the one quoting of core's text/). */
export const shellWord = (s: string): string => shellQuote(s);

const runRef = (s: ReasonSubject) => shellWord(`${s.dialect}/${s.id}`);

/**
 * The one table of attention reasons: every hint and command ckpt gives about a run (in `status`, `resume`,
 * `doctor` and the viewer) comes from here. The level of a reason is decided where it is computed (`attention.ts`).
 */
export const ATTENTION_REASONS = {
  'version/unsupported': {
    title: 'a file is in a format version ckpt does not interpret',
    hint: 'upgrade ckpt (npm install -g @ckpt/cli@latest); until then read the run with the tool that wrote it',
  },
  'files/unreadable': {
    title: 'a file of the run cannot be read or parsed',
    hint: 'restore or repair the file (an interrupted write leaves the previous version in git or a backup)',
    command: (s) => `ckpt validate ${shellWord(s.file ?? s.root)}`,
  },
  'findings/errors': {
    title: 'the run has error findings',
    hint: 'each finding says what is wrong and where; fix the file or the process that wrote it',
    command: (s) => `ckpt validate ${shellWord(s.root)}`,
  },
  'findings/warnings': {
    title: 'the run has warnings',
    hint: 'nothing stops the run; the warnings say what may surprise a resume',
    command: (s) => `ckpt validate ${shellWord(s.root)}`,
  },
  'run/status': {
    title: 'the run stopped in a state that needs a person',
    hint: 'the run page shows which unit failed or waits, with its evidence and next step',
    command: (s) => `ckpt status --run ${runRef(s)}`,
  },
  'units/blocked': {
    title: 'units of the run are marked blocked: each waits for a person',
    hint: 'read the blocked unit’s note and evidence, remove the cause, then set it back to pending',
    command: (s) => `ckpt status --run ${runRef(s)}`,
  },
  'run/stale': {
    title: 'the run says it is running but has not been updated for longer than its dialect allows',
    hint: 'the process running it has most likely stopped; make sure it has, then resume the run',
    command: (s) => `ckpt resume --run ${runRef(s)}`,
  },
  'lock/dead-holder': {
    title: "the run's lock is held by a process that is no longer running",
    hint: 'take the lock over; ckpt records the stale lock in run.log before replacing it',
    command: (s) => `ckpt resumable lock --run ${shellWord(s.root)} --steal`,
  },
  'lock/leftover-mutex': {
    title: "a writer's short-lived lock directory was left behind",
    hint: 'make sure no writer is running, then remove the directory (it holds no data)',
    command: (s) => `rm -r -- ${shellWord(s.file ?? s.root)}`,
  },
  'resume/needs-person': {
    title: 'resuming needs a decision from a person first',
    hint: "decide each item under 'needs a person' in the resume plan, then resume",
    command: (s) => `ckpt resume --run ${runRef(s)}`,
  },
  'resume/blocked': {
    title: 'units of the run are blocked',
    hint: 'a blocked unit waits for another unit or a fix; the resume plan says which',
    command: (s) => `ckpt resume --run ${runRef(s)}`,
  },
} as const satisfies Record<string, ReasonEntry>;

export type AttentionCode = keyof typeof ATTENTION_REASONS;

/** A reason of the table for one run, with the table's hint and command. */
export function attentionReason(
  code: AttentionCode,
  level: AttentionReason['level'],
  message: string,
  subject: ReasonSubject,
): AttentionReason {
  const entry: ReasonEntry = ATTENTION_REASONS[code];
  return {
    code,
    level,
    message,
    hint: entry.hint,
    ...(entry.command ? { command: entry.command(subject) } : {}),
  };
}
