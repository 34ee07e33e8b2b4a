import { defineCodes } from '../../findings/code-table.js';

/** The semantic finding codes of the `ulpi` dialect (checkpoint-resume status files and their event log). */
export const ulpiCodes = defineCodes({
  'ulpi/dependency-cycle': {
    severity: 'error',
    title: 'Units depend on each other in a cycle.',
    explanation:
      'No unit of a dependency cycle can ever become eligible: each waits for another that waits for it. Resume reports them dep_blocked (its root walk stops on a seen-set), so the run can never finish. Remove one edge of the cycle.',
  },
  'ulpi/unknown-dependency': {
    severity: 'error',
    title: 'A unit depends on an id that is not a unit.',
    explanation:
      'An unknown dependency counts as not done, so the unit stays dep_blocked forever and `finalize done` refuses while it is open: the run can never finish. Add the missing unit or fix the id in `dependsOn`.',
  },
  'ulpi/done-with-open-dependency': {
    severity: 'warning',
    title: 'A unit is done although one of its dependencies is not.',
    explanation:
      'A done unit is skipped on resume, but it was built on a base that never landed. Check the unit; the skill says never to skip a unit whose prerequisite did not land.',
  },
  'ulpi/stale-dep-blocked': {
    severity: 'warning',
    title: 'A unit is stored dep_blocked although its dependencies are all done.',
    explanation:
      'Resume treats it as eligible (only done skips), so nothing is lost, but the stored status is stale. Mark it pending or run it.',
  },
  'ulpi/done-with-open-units': {
    severity: 'error',
    title: 'The run is done while some units are not done.',
    explanation:
      '`finalize done` refuses while a unit is not done; a done run with open units was finalized by hand. Finalize it needs_attention, or finish the units.',
  },
  'ulpi/done-with-open-items': {
    severity: 'error',
    title: 'The run is done while openItems is not empty.',
    explanation:
      '`finalize done` refuses while findings are open. Resolve them (`ckpt ulpi resolve --ids`) or finalize needs_attention.',
  },
  'ulpi/done-with-open-phases': {
    severity: 'error',
    title: 'The run is done while a phase is blocked or a required phase is not done.',
    explanation:
      '`finalize done` refuses while a phase is blocked or a phase named in `requiredPhases` is not done.',
  },
  'ulpi/done-without-validation': {
    severity: 'error',
    title: 'The run is done and requires validation, but has no green finalValidation.',
    explanation:
      'With `requireValidation: true`, `finalize done` needs a green `finalValidation` (`ckpt ulpi validation <file> green`).',
  },
  'ulpi/finished-at-on-live-run': {
    severity: 'warning',
    title: 'A running run carries finishedAt.',
    explanation:
      '`finishedAt` is stamped by finalize, which also sets a terminal status. A running or initializing run with it was edited by hand or re-initialised badly.',
  },
  'ulpi/timestamps-out-of-order': {
    severity: 'warning',
    title: 'Timestamps are out of order.',
    explanation:
      'Every write stamps `updatedAt` last, so `createdAt`, `startedAt` and `finishedAt` are never later than the `updatedAt` beside them, and the document is updated no earlier than its units and phases. A clock jump or a hand edit breaks this; durations shown will be wrong.',
  },
  'ulpi/malformed-launch': {
    severity: 'error',
    title: 'The persisted launch descriptor is malformed.',
    explanation:
      'A launch must be `{scriptPath: <non-empty string>, args?: <object>}`; `init --launch` refuses anything else. run-status classifies a malformed one as no-launch (non-runnable), so the run cannot be resumed from its status file alone.',
  },
  'ulpi/event-log-missing-init': {
    severity: 'error',
    title: 'The event log does not start with an init line.',
    explanation:
      'Line 1 of `<id>.events.jsonl` must be `{v:1, op:"init", doc, afterHash}`. Replay fails closed without it.',
  },
  'ulpi/event-log-repeated-init': {
    severity: 'error',
    title: 'The event log has a second init line.',
    explanation:
      'Only line 1 may be an init. Replay fails closed: the log cannot say which document is the start.',
  },
  'ulpi/event-log-chain': {
    severity: 'error',
    title: 'The event log hash chain is broken.',
    explanation:
      "Each line's `beforeHash` must equal the previous line's `afterHash`, and its `afterHash` must be the sha256 of the document after applying it. A broken chain means lines were lost, reordered or edited: replay fails closed.",
  },
  'ulpi/event-log-torn-transaction': {
    severity: 'warning',
    title: 'The last transaction of the event log did not land whole.',
    explanation:
      "ckpt marks the lines of one command's change `tx: {i, n}`. When the log ends with lines 1..k of an n-line transaction (k < n), the append failed or was interrupted: replay ignores those lines (the run is in its state before that command, which did not report success), and the next ckpt write cuts them off. A tool that ignores the marks replays them as a partial change.",
  },
  'ulpi/event-log-bad-transition': {
    severity: 'error',
    title: 'An event log line cannot be applied.',
    explanation:
      'A transition path must lead through objects, a merge value must be an object, and path keys must not be `__proto__`, `prototype` or `constructor`. Replay fails closed.',
  },
  'ulpi/snapshot-behind-log': {
    severity: 'warning',
    title: 'The snapshot is behind its event log.',
    explanation:
      'A crash after the log line was fsynced but before the snapshot was replaced leaves the snapshot at an earlier state of the log. The log wins: the next append (or `ckpt ulpi rebuild`) rebuilds the snapshot first.',
  },
  'ulpi/snapshot-diverged': {
    severity: 'error',
    title: 'The snapshot matches no state of its event log.',
    explanation:
      'The snapshot was written without the log: by a tool that ignores it (the original checkpoint.mjs writes the file directly, and its `init` may have re-initialised the run: another createdAt or id than the log records), or by hand. ckpt never replays the log over it: its writers refuse (exit 2) until you choose. Keep the file: move the log away. Keep the logged run: `ckpt ulpi rebuild <file> --force`.',
  },
  'ulpi/open-item': {
    severity: 'info',
    title: 'An open item in the run findings register.',
    explanation:
      'Shown by `ckpt status` for each entry of `openItems` (a blocker item is a warning). Open items block `finalize done` until resolved with `ckpt ulpi resolve --ids`.',
  },
  'ulpi/stale-temp-file': {
    severity: 'info',
    title: 'A temp file of an interrupted write is left in the runs directory.',
    explanation: 'Readers ignore temp files; an old one is what a crashed writer leaves. It can be deleted.',
  },
});

/** A code of the ulpi table. */
export type UlpiCode = keyof typeof ulpiCodes;
