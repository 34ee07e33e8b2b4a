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
      'ckpt reads version 1 of both files, written "1", "1.0" or "v1" (any version whose major number is 1). A newer file may use keys with a different meaning, so it is not interpreted.',
  },
  'resumable/schema-version-missing': {
    severity: 'warning',
    title: 'STATE_SCHEMA_VERSION or CHECKLIST_SCHEMA_VERSION is not set; version 1 is assumed.',
    explanation:
      'The skill says to use explicit schema keys, but does not list them among the keys state.env sets at minimum. A file without one is read as version 1; set it so a later format can be told apart.',
  },
  'resumable/stage-done-checklist-incomplete': {
    severity: 'error',
    title: 'A stage is marked done while one of its required checklist keys is not 1.',
    explanation:
      "A stage is complete only when every required CB_<STAGE>_<ITEM> key is 1; a key that is not 1, an item REQUIRED_<STAGE> names without its key, or the run's own <STAGE>_CHECKLIST_DONE=0 counts as not done. This is a stop condition: reconcile the checklist with the real state before going on.",
  },
  'resumable/stage-done-unchecked': {
    severity: 'warning',
    title: 'A stage is marked done but the run records no checklist for it.',
    explanation:
      "The checklist has no CB_<STAGE>_* key and no REQUIRED_<STAGE> for the stage, and no <STAGE>_CHECKLIST_DONE=1 says its checks passed. The skill forbids a done flag while required checks are incomplete; with none declared nothing is incomplete, but nothing proves the stage either. Add the stage's CB_<STAGE>_<ITEM> keys (or <STAGE>_CHECKLIST_DONE=1).",
  },
  'resumable/missing-artifact': {
    severity: 'error',
    title: 'A done stage lacks an artifact its gate requires.',
    explanation:
      "The skill states no file-name convention, so a stage needs only the artifacts the run declares: a <STAGE>_ARTIFACTS key (comma-separated, relative to artifacts/ or under ARTIFACT_ROOT; empty means none) or a <STAGE>_..._ARTIFACT... key naming a file, in state.env or checklist.state.env. Runs made by `ckpt resumable init` (they hold artifacts/contract.env) also follow ckpt's convention: a done stage that declares nothing has at least one artifacts/<STAGE>-* file. Missing artifacts for a gate are a stop condition.",
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
    explanation:
      'Every stage has an explicit done flag; declare the stage or fix the pointer. A terminal word (DONE, COMPLETE, COMPLETED, FINALIZED, FINISHED, any case) means every stage is done. Resume is derived from the done flags, not from the pointer.',
  },
  'resumable/current-stage-missing': {
    severity: 'warning',
    title: 'state.env has no CURRENT_STAGE (or an empty one).',
    explanation:
      'The skill keeps one stage pointer. ckpt derives where to resume from the done flags, so a missing pointer loses nothing; set it for the people reading the run.',
  },
  'resumable/run-identity-mismatch': {
    severity: 'error',
    title: 'RUN_ROOT or the lock names another run id than RUN_ID.',
    explanation:
      'RUN_ROOT ends with <TASK_NAME>-<RUN_ID>, and a lock that names a run id names this one. A different run id in RUN_ROOT or in the lock means files from two runs were mixed.',
  },
  'resumable/run-name-mismatch': {
    severity: 'warning',
    title:
      "The run-root folder, or RUN_ROOT's last part, is not named <TASK_NAME>-<RUN_ID>, though the run id agrees.",
    explanation:
      'The skill names a run root <task>-<run-id>. A folder under another name is usually a copy (a test folder, a CI checkout) and RUN_ROOT still names the original; a task part that differs from TASK_NAME is a naming slip. Neither mixes two runs, so ckpt reads the run as it is.',
  },
  'resumable/path-mismatch': {
    severity: 'warning',
    title: 'ARTIFACT_ROOT is not <RUN_ROOT>/artifacts, or LOCK_FILE is not inside RUN_ROOT.',
    explanation:
      'The skill keeps durable files inside the run root. ckpt reads artifacts from <RUN_ROOT>/artifacts and the lock from the file LOCK_FILE names inside the run root (else run.lock, lock, .lock or state.lock there).',
  },
  'resumable/contract-missing': {
    severity: 'warning',
    title: 'An item of the immutable contract is set under none of its spellings.',
    explanation:
      'The contract (repo root, branch, base pin, expected old SHA, plan path, report targets) is persisted before any mutation, under any of its spellings (listed under "Contract key spellings" on the spec page), or recorded in artifacts/contract.env. Without an item ckpt cannot check it on resume (a branch or expected old SHA for the push lease, a base pin for HEAD).',
  },
  'resumable/contract-drift': {
    severity: 'error',
    title:
      'An immutable contract value differs between two of its spellings or from the one recorded at bootstrap.',
    explanation:
      'Two spellings of one item (REPO_ROOT and CONTRACT_REPO_ROOT, BASE_PIN_SHA and BASE_PIN, ...) must hold the same value, and every spelling must keep the value artifacts/contract.env recorded at bootstrap. Lists are compared item by item, SHAs without case; EXPECTED_OLD_REMOTE_SHA=UNKNOWN (before the first push) is never drift. Drift means the intent changed mid-run: stop and start a new run.',
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
      'Finalization happens only after confirmation: PUSH_CONFIRMED=1, or every CB_<STAGE>_REMOTE_CONFIRMED (or _PUSH_CONFIRMED) key is 1, or, in a run with no confirmation key at all, every stage is done. Reported only when the run records an unconfirmed push (a confirmation key that is not 1, or an attempt key that is 0): the skill names no push keys, so a run that records none is not judged.',
  },
  'resumable/lock-active': {
    severity: 'error',
    title: 'The run is locked by a live process on this host.',
    explanation:
      'Single-writer discipline: while the holder runs, every other writer stops. Wait for it to finish, or end it.',
  },
  'resumable/lock-incomplete': {
    severity: 'warning',
    title: 'The lock lacks some of the pid, host, user and timestamp metadata the skill asks for.',
    explanation:
      'ckpt reads pid, host (or hostname), user and the time (acquired_at_utc, acquired_at, timestamp, ts, time, started_at, created_at or locked_at), in lower or upper case. Without a pid and a host nobody can tell whether the holder is alive, so the lock can only be taken over by hand (`ckpt resumable lock --steal`).',
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
    title: 'A run.log line does not start with a time.',
    explanation:
      'run.log is the human timeline. ckpt writes `[<UTC ISO time>] <message>`, and reads a time bracketed or not, with a space or a T, compact (`20261129T100000Z`), with an offset or none (read as UTC).',
  },
});
