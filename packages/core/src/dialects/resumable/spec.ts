/**
 * The hand-written part of the resumable spec page (schemas/resumable/README.md, rendered by
 * packages/core/scripts/spec-page.mjs). The contract table is built from contract.ts, so the page and the reader
 * never disagree.
 */
import { CONTRACT_ITEMS } from './contract.js';
import { FINALIZATION_FLAGS, PUSH_FLAGS } from './stages.js';

const code = (k: string) => `\`${k}\``;

function contractTable(): string[] {
  const rows = CONTRACT_ITEMS.map((i) => {
    const notes = [
      i.minimumKey
        ? `${code(i.minimumKey)} is on the skill's "set at minimum" list (missing: schema error)`
        : '',
      i.fallbackKeys.length > 0
        ? `${i.fallbackKeys.map(code).join(', ')} is read only when no other spelling is set, and never compared with them (a run may keep its work branch beside the branch it targets or started from)`
        : '',
      i.placeholder
        ? `${code(i.placeholder)} means "not known yet" (before the first push): set, never drift`
        : '',
      i.list ? 'a list (comma- or space-separated), compared item by item; empty means no targets' : '',
      i.sha
        ? 'compared without case; an abbreviation (7 or more hex digits) equals the SHA it abbreviates'
        : '',
      i.path ? 'compared without a trailing `/`' : '',
    ].filter((n) => n !== '');
    return `| ${i.label} | ${i.keys.map(code).join(', ')}${i.fallbackKeys.length ? `, then ${i.fallbackKeys.map(code).join(', ')}` : ''} | ${notes.join('; ') || ' '} |`;
  });
  return ['| item | spellings, preferred first | notes |', '|---|---|---|', ...rows];
}

/** Markdown shown on the spec page after the document table. */
export function resumableSpecSection(): string {
  return [
    '## How ckpt reads a run',
    '',
    'The skill names what to persist, not the keys, and real runs spell the same things differently. ckpt reads',
    'every spelling below; `ckpt resumable init` writes the first one and records the contract once in',
    '`artifacts/contract.env`.',
    '',
    '### Contract key spellings',
    '',
    'The immutable contract is read from state.env under any of these keys, or from `artifacts/contract.env`',
    'when state.env sets none of them. An item no spelling supplies is a `resumable/contract-missing` warning;',
    'two spellings that disagree, or a value that differs from `artifacts/contract.env`, is',
    '`resumable/contract-drift` (an error and a stop condition).',
    '',
    ...contractTable(),
    '',
    '### Push state',
    '',
    `Push progress comes from the explicit flags ${PUSH_FLAGS.map(code).join(' and ')} (in state.env or`,
    'checklist.state.env) as well as from checklist items `CB_<STAGE>_PUSH_ATTEMPTED` and',
    '`CB_<STAGE>_REMOTE_CONFIRMED` / `CB_<STAGE>_PUSH_CONFIRMED`; either source saying `1` counts. A run with no',
    'confirmation key at all counts as confirmed once every stage is done. The resume windows and',
    `\`resumable/finalized-before-push\` (${FINALIZATION_FLAGS.map(code).join(', ')}, all optional) use the same reading;`,
    'the rule fires only when the run records an unconfirmed push (a confirmation key that is not `1`, or an attempt',
    'key that is `0`): a run that keeps no push keys is not judged, and one that has begun finalizing resumes in the',
    '"push confirmed, finalization incomplete" window.',
    '',
    '### Stage gates and artifacts',
    '',
    'A stage is `S<n>` or `M<n>`, done when `<STAGE>_DONE=1`. Its checklist is complete when every',
    '`CB_<STAGE>_<ITEM>` key (and every item `REQUIRED_<STAGE>` names) is `1`; a run may also keep',
    '`<STAGE>_CHECKLIST_DONE`, and a done stage with `<STAGE>_CHECKLIST_DONE=0` is incomplete.',
    '',
    'The skill states no file-name convention for artifacts, so a done stage needs only the artifacts the run',
    'declares: `<STAGE>_ARTIFACTS` (comma-separated) or a key named `<STAGE>_..._ARTIFACT...` (e.g.',
    '`S2_DIFF_ARTIFACT`), in state.env or checklist.state.env, naming files relative to `artifacts/`, under',
    '`$ARTIFACT_ROOT` or under the recorded `ARTIFACT_ROOT` (`*` matches within a name; a number is a flag, not a',
    "name). Runs made by `ckpt resumable init` (they hold `artifacts/contract.env`) follow ckpt's convention:",
    'a done stage that declares nothing has at least one `artifacts/<STAGE>-*` file.',
    '',
    '### What a person following the skill may write (and ckpt reads without an error)',
    '',
    'Files a person writes from the skill text are read as written; only the stop conditions of the skill are',
    "errors. ckpt's own conventions give a warning at most:",
    '',
    '- **Env syntax.** `KEY=value`, `KEY="value"` and `KEY=\'value\'` (single quotes: literal), each optionally after',
    '  `export `, several on one line separated by whitespace (`pid=1 host=a user=b`, as a shell reads them), with',
    '  a `# comment` after whitespace, LF or CRLF line ends: no finding. Inside double quotes a',
    '  backslash escapes `\\\\`, `\\"`, `$` and a backquote and is literal before anything else, as in a shell; `$VAR`',
    '  (braced or not), quoted or not, is kept as written (ckpt does not expand). An unquoted value with a space is read whole (up to a comment) and',
    '  reported as `parse/unquoted-space` (a warning: a shell would run the rest as a command). A key set twice (a',
    '  file copied to *.tmp, lines appended, renamed) keeps its last value, as in a shell: `parse/repeated-env-key` (a',
    '  warning). Still unparsable (an',
    '  error and a stop condition): unquoted quotes, `$(`, a lone `$`, backquotes, backslashes or `;&|<>()`, text after a closing',
    '  quote, an unterminated quote, a line that is not `KEY=...`.',
    '- **Schema versions.** `STATE_SCHEMA_VERSION` / `CHECKLIST_SCHEMA_VERSION` `1`, `1.0`, `v1` (any version whose',
    '  major number is 1) are version 1. A missing (or empty) one is read as version 1 with',
    '  `resumable/schema-version-missing` (a warning): the skill says to use the keys but does not list them among the',
    '  keys to set at minimum. Any other version is `resumable/unsupported-schema-version` (an error).',
    '- **Required keys.** The schema requires only the skill\'s "set at minimum" list: RUN_ID, TASK_NAME, RUN_ROOT,',
    '  REPO_ROOT, PLAN_PATH, ARTIFACT_ROOT, LOCK_FILE. checklist.state.env requires no key.',
    '- **CURRENT_STAGE.** Any text. `S<n>`/`M<n>` in any case names that stage; DONE, COMPLETE, COMPLETED,',
    '  FINALIZED, FINISHED (any case) mean every stage is done; anything else that names no stage with a done flag',
    '  (`FINALIZE`, `S2_BUILD`) is `resumable/unknown-current-stage` (a warning). Missing or empty:',
    '  `resumable/current-stage-missing` (a warning); resume follows the done flags, never the pointer. A pointer past',
    '  a stage whose flag is 0 stays `resumable/current-stage-ahead` (an error).',
    '- **Done stages without checklist keys.** A done stage with a `CB_<STAGE>_*` key that is not 1, an item',
    '  `REQUIRED_<STAGE>` names without its key, or `<STAGE>_CHECKLIST_DONE=0` is',
    "  `resumable/stage-done-checklist-incomplete` (an error, the skill's stop condition). A done stage for which the",
    '  checklist records nothing at all (no key, no REQUIRED_, no `<STAGE>_CHECKLIST_DONE=1`) declares no required',
    '  check, so none is incomplete: `resumable/stage-done-unchecked` (a warning), and the stage counts as done.',
    '- **Run identity.** RUN_ROOT (or a lock) naming another run id than RUN_ID means two runs mixed:',
    '  `resumable/run-identity-mismatch` (an error). A run-root folder named otherwise than <TASK_NAME>-<RUN_ID>',
    '  (files copied into a test folder or a CI checkout) or a RUN_ROOT whose task part differs from TASK_NAME is',
    '  `resumable/run-name-mismatch` (a warning).',
    '- **The lock.** Read from the file LOCK_FILE names when it resolves inside the run root (an absolute path under',
    '  RUN_ROOT, `$RUN_ROOT/...`, or a path relative to the run root), else from `run.lock`, `lock`, `.lock` or',
    '  `state.lock` in the run root; the writer verbs (`ckpt resumable lock`, `unlock` and the verbs that check the',
    "  lock) use the same file, and take a new lock at LOCK_FILE's path when its folder exists (else `run.lock`).",
    '  pid, host (or hostname), user and the time (acquired_at_utc, acquired_at, timestamp, ts, time, started_at,',
    '  created_at, locked_at) are read in lower or upper case, several on one line or as a flat JSON object',
    '  (`{"pid": 123, ...}`); the time may be any text. A lock without one of them is `resumable/lock-incomplete`',
    '  (a warning). run_id is optional; one naming another run than RUN_ID (by id or by run-root name) is',
    '  `resumable/run-identity-mismatch`. LOCK_FILE outside RUN_ROOT, or ARTIFACT_ROOT other than',
    '  `<RUN_ROOT>/artifacts` (also `$RUN_ROOT/artifacts`), is `resumable/path-mismatch` (a warning).',
    '- **Checklist and artifact lists.** `REQUIRED_<STAGE>` lists items separated by commas or spaces, as `ITEM` or',
    '  `CB_<STAGE>_ITEM`. An artifact declaration lists files separated by commas or spaces; only a word with a `.`, a',
    '  `/` or a `*` names a file, so a flag, a count, a status word or a note (`S2_ARTIFACT_STATUS="captured"`)',
    '  declares nothing and is never a missing artifact.',
    '- **run.log.** The skill asks for a human-readable timeline and names no line format: a line starting with a',
    '  time, bracketed or not (`[2026-11-29T10:00:00Z]`, `2026-11-29 10:00:00`, `[20261129T100000Z]`, an offset or',
    '  none, read as UTC) is a timeline line; any other line is `resumable/malformed-log-line` (a warning).',
    '- **Contract SHAs.** `CONTRACT_BASE_PIN` and `CONTRACT_EXPECTED_OLD_SHA` take any text in state.env (a short',
    '  or upper-case SHA, `UNKNOWN` before the first push); only `artifacts/contract.env`, which ckpt writes, holds',
    '  full lower-case SHAs.',
    '',
    '### Other keys',
    '',
    'Keys such as `LAST_COMPLETED_STAGE`, `LAST_GATE_RESULT`, `LAST_GATE_FAILURE_REASON`, `LAST_RESUME_HINT` and',
    '`STAGE_STATUS` are read as notes: they give no finding. Any other task-specific key is valid too;',
    '`ckpt validate --strict` reports keys the schema does not name.',
  ].join('\n');
}
