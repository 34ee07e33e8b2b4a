import { defineCodes } from '../../findings/code-table.js';
import { describeSecretPatterns, LIMITS } from './guards.js';

/**
 * Every semantic finding code of the `team` dialect, with its documentation. This table is the one place the codes
 * are documented: `ckpt explain`, the docs page and the tests read it.
 */
export const teamCodes = defineCodes({
  'team/conflicting-terminal-events': {
    severity: 'error',
    title: 'One task attempt has two or more terminal events.',
    explanation:
      'Two invocations of the same attempt raced and both wrote a `task_finished` event. ckpt never picks one: the attempt reads as `conflict` and resume will not treat it as completed. Inspect the artifacts, decide which outcome is true, and move the wrong event out of `events/` by hand.',
  },
  'team/duplicate-start': {
    severity: 'warning',
    title: 'One task attempt has two `task_started` events.',
    explanation:
      'Two invocations started the same attempt. Only one writer per task attempt is allowed; check that the task was not dispatched twice (its side effects may have happened twice).',
  },
  'team/missing-start': {
    severity: 'warning',
    title: 'A terminal event has no `task_started` event for its attempt.',
    explanation:
      'The helper writes `task_started` before dispatch; a `task_finished` without one was written by hand or its start event was lost. The outcome is still read.',
  },
  'team/attempt-gap': {
    severity: 'warning',
    title: 'The attempts of a task are not numbered 1, 2, 3... without gaps.',
    explanation:
      "`retry` writes the next attempt number. A gap means an attempt's events are missing (deleted, or malformed and ignored).",
  },
  'team/started-after-terminal': {
    severity: 'error',
    title: 'A `task_started` event is later than a terminal event of the same attempt.',
    explanation:
      'An attempt starts once and ends once. A start after the end means the attempt was dispatched again without `retry`; use `retry` so the earlier attempt stays in the history.',
  },
  'team/invalid-retry': {
    severity: 'error',
    title: 'A later attempt retries an attempt that was not failed or interrupted.',
    explanation:
      'Only a failed or interrupted latest attempt may be retried (`retry` refuses anything else): a completed attempt is never rerun, a running one must be reconciled first. `retry_of`, when present, must name the previous attempt.',
  },
  'team/stale-approval': {
    severity: 'warning',
    title: "An approval's artifact changed or is missing since it was approved.",
    explanation:
      "An approval counts only while the artifact's current sha256 equals the recorded one. Review the artifact again and record a new approval (`ckpt team approve`); a newer matching approval makes the gate approved again.",
  },
  'team/started-status-not-running': {
    severity: 'error',
    title: 'A `task_started` event has a terminal status.',
    explanation:
      '`task_started` is written before dispatch with status `running`. The event is read as a start only; it never counts as a finished attempt.',
  },
  'team/finished-status-not-terminal': {
    severity: 'error',
    title: 'A `task_finished` event has status `running`.',
    explanation:
      'Terminal statuses are `completed`, `failed`, `interrupted` and `awaiting_approval`. The event is ignored for state: the attempt stays running (uncertain).',
  },
  'team/attempt-below-one': {
    severity: 'error',
    title: 'An event records an attempt number below 1.',
    explanation: 'Attempts are numbered from 1. The event is ignored for state.',
  },
  'team/name-body-mismatch': {
    severity: 'error',
    title: "A checkpoint file's name disagrees with its content.",
    explanation:
      "Event files are named `<time>-<event>-<task>-a<attempt>-<token>.json` and live in their run's directory; approval files are `<time>-<stage>-<token>.json`. Readers take every field from the body (task ids contain `-`), so the file was renamed or edited by hand.",
  },
  'team/bad-file-name': {
    severity: 'warning',
    title: 'A checkpoint file is not named the way the helper names it.',
    explanation:
      'Event files: `<yyyymmddThhmmss+6 digits>Z-<task_started|task_finished>-<task>-a<attempt>-<6 hex>.json`; approval files: `<time>-<stage>-<6 hex>.json`. The body is still read.',
  },
  'team/run-id-mismatch': {
    severity: 'error',
    title: "run.json's `run_id` differs from its directory name.",
    explanation:
      'The run id is the directory name; events name it too. A run.json copied from another run is read with its directory as the run id.',
  },
  'team/secret-in-text': {
    severity: 'error',
    title: 'A text field looks like it holds a secret.',
    explanation: `Checkpoints must not store secrets or credentials. Free text (evidence, next, note, reason) and names are checked against these patterns: ${describeSecretPatterns()}. Writers refuse such text; remove the secret from the file and rotate it.`,
  },
  'team/value-too-long': {
    severity: 'error',
    title: 'A text value is longer than the helper allows.',
    explanation: `Keep evidence and next-action text short (no transcripts). Limits, in characters: evidence ${LIMITS.evidence}, next ${LIMITS.next}, note ${LIMITS.note}, reason ${LIMITS.reason}, names (task, stage, agent, profile, by) ${LIMITS.name}, paths ${LIMITS.path}.`,
  },
  'team/path-outside-project': {
    severity: 'error',
    title: 'An input, artifact or approval path is absolute or escapes the project.',
    explanation:
      'Paths are relative to the project root (the directory holding `.team/`), `/`-separated, without a `..` segment. An approval with such a path is never valid and is ignored for state; ckpt never reads a file outside the project.',
  },
  'team/dangling-current': {
    severity: 'warning',
    title: '`current` does not name an existing run.',
    explanation:
      '`current` holds one line, the latest run id. When it is empty, unreadable or names no run directory with a run.json, readers use the newest run instead.',
  },
  'team/current-not-newest': {
    severity: 'warning',
    title: '`current` names a run older than the newest run.',
    explanation:
      '`current` is last-write-wins, and `start-run` writes it after run.json, so an interrupted `start-run` or a hand edit leaves it behind. Status follows `current`; pass `--run` to look at another run.',
  },
  'team/incomplete-run': {
    severity: 'info',
    title: 'A run directory has no run.json.',
    explanation:
      '`start-run` creates the directory, then writes run.json once. A directory without it is what an interrupted `start-run` leaves; it is not a run. Delete it if it holds nothing.',
  },
  'team/missing-run-json': {
    severity: 'error',
    title: 'A run has events but no readable run.json.',
    explanation:
      "run.json is the run's authoritative record, written once by `start-run` before any event. A run whose run.json was deleted, or is a directory, a FIFO, a dangling symbolic link or a link loop, cannot be told complete from its events alone: status shows it as unreadable and validate fails. Restore run.json (from version control or a backup).",
  },
  'team/leftover-temp-file': {
    severity: 'info',
    title: 'A temporary file from an interrupted write.',
    explanation:
      'Writers publish each file through a hidden temp file; a crash can leave one behind. Readers ignore temp files. Delete it when no write is in progress.',
  },
});

/** A code of the team dialect. */
export type TeamCode = keyof typeof teamCodes;
