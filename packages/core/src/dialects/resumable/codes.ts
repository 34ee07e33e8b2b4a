import { defineCodes } from '../../findings/code-table.js';

/** Semantic finding codes of the resumable dialect (parse and schema problems use the generic codes). */
export const resumableCodes = defineCodes({
  'resumable/missing-state': {
    severity: 'error',
    title: 'The run root has no state.env.',
    explanation:
      'state.env is the machine state of the run. Without it nothing can be resumed: this is a stop condition. Restore it from a backup or start a new run.',
  },
  'resumable/missing-checklist': {
    severity: 'error',
    title: 'The run root has no checklist.state.env.',
    explanation:
      'The checklist holds the required child checks of every stage; a missing checklist is a stop condition, because no stage can be proven complete.',
  },
  'resumable/unsupported-schema-version': {
    severity: 'error',
    title: 'STATE_SCHEMA_VERSION or CHECKLIST_SCHEMA_VERSION is not a version ckpt reads.',
    explanation:
      'ckpt reads version "1" of both files. A newer file may use keys with a different meaning, so it is not interpreted.',
  },
  'resumable/stage-done-checklist-incomplete': {
    severity: 'error',
    title: 'A stage is marked done while one of its required checklist keys is not 1.',
    explanation:
      'A stage is complete only when every required CB_<STAGE>_<ITEM> key is 1; a missing key (also one named in REQUIRED_<STAGE>, or a stage with no keys at all) counts as not done. This is a stop condition: reconcile the checklist with the real state before going on.',
  },
  'resumable/missing-artifact': {
    severity: 'error',
    title: 'A done stage has no artifact in artifacts/.',
    explanation:
      'Each done stage leaves evidence in artifacts/: the files its <STAGE>_ARTIFACTS key lists (comma-separated, relative to artifacts/; an empty value means none), or by default at least one file named <STAGE>-*. Missing artifacts for a gate are a stop condition.',
  },
  'resumable/current-stage-ahead': {
    severity: 'error',
    title: 'CURRENT_STAGE points past a stage that is not done.',
    explanation:
      'The stage pointer may only move forward over done stages. A pointer ahead of an unfinished stage would skip it on resume.',
  },
  'resumable/unknown-current-stage': {
    severity: 'warning',
    title: 'CURRENT_STAGE names a stage that has no <STAGE>_DONE flag.',
    explanation: 'Every stage has an explicit done flag; declare the stage or fix the pointer.',
  },
  'resumable/run-identity-mismatch': {
    severity: 'error',
    title: 'RUN_ID, TASK_NAME, RUN_ROOT, the lock and the run-root folder name disagree.',
    explanation:
      'A run root is named <TASK_NAME>-<RUN_ID>, RUN_ROOT ends with that name, and the lock names the same run id. A mismatch means files from two runs were mixed.',
  },
  'resumable/path-mismatch': {
    severity: 'warning',
    title: 'ARTIFACT_ROOT or LOCK_FILE is not inside RUN_ROOT.',
    explanation: 'ckpt reads artifacts from <RUN_ROOT>/artifacts and the lock from <RUN_ROOT>/run.lock.',
  },
  'resumable/contract-missing': {
    severity: 'error',
    title: 'A stage is done but an immutable contract key is missing.',
    explanation:
      'The immutable contract (CONTRACT_REPO_ROOT, CONTRACT_BRANCH, CONTRACT_BASE_PIN, CONTRACT_EXPECTED_OLD_SHA, CONTRACT_PLAN_PATH, CONTRACT_REPORT_TARGETS) must be filled before any stage runs.',
  },
  'resumable/contract-drift': {
    severity: 'error',
    title: 'An immutable contract value differs from the one recorded at bootstrap.',
    explanation:
      '`ckpt resumable init` records the contract once in artifacts/contract.env. If state.env now says something else, the intent changed mid-run: stop and start a new run.',
  },
  'resumable/duplicate-summary': {
    severity: 'error',
    title: 'run.log holds two summary blocks for the same RUN_ID.',
    explanation:
      'Finalization appends one summary block under its `=== RUN SUMMARY RUN_ID=<id> ===` marker and skips it on resume. A second block means finalization was not idempotent.',
  },
  'resumable/finalized-before-push': {
    severity: 'error',
    title: 'A finalization flag is 1 before the push is confirmed.',
    explanation:
      'Finalization happens only after confirmation: every CB_<STAGE>_REMOTE_CONFIRMED (or _PUSH_CONFIRMED) key is 1, or, in a run without push checks, every stage is done.',
  },
  'resumable/lock-active': {
    severity: 'error',
    title: 'The run is locked by a live process on this host.',
    explanation:
      'Single-writer discipline: while the holder runs, every other writer stops. Wait for it to finish, or end it.',
  },
  'resumable/lock-stale': {
    severity: 'warning',
    title: 'The lock was left by a process that is no longer running.',
    explanation:
      'The holder died without removing its lock. `ckpt resumable lock` appends the stale lock to run.log and replaces it.',
  },
  'resumable/leftover-temp-file': {
    severity: 'info',
    title: 'A temp file from an interrupted write is left in the run root.',
    explanation:
      'Temp files (*.tmp, *.tmp.<pid>, .<name>.ckpt-tmp-*) are never read as state. One left behind by a crash can be deleted.',
  },
  'resumable/malformed-log-line': {
    severity: 'warning',
    title: 'A run.log line is not `[<UTC ISO time>] <message>`.',
    explanation: 'run.log is the human timeline; each line starts with a bracketed UTC timestamp.',
  },
});
