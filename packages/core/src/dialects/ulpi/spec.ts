/**
 * The hand-written part of the ulpi spec page (schemas/ulpi/README.md, rendered by
 * packages/core/scripts/spec-page.mjs): how `ckpt ulpi` matches the original checkpoint.mjs, and the differences
 * kept on purpose. Each kept difference is a case of test-fixtures/ulpi/differential/ with a `ckpt` block.
 */

const KEPT: readonly (readonly [input: string, original: string, ckpt: string, why: string])[] = [
  [
    '`ckpt ulpi --help`, `ckpt ulpi help`, `ckpt ulpi <verb> --help` (or `-h` right after the verb)',
    'usage line, or tries to read a file named `--help` (exit 1)',
    'the help page, exit 0',
    'help is worth more than reading a file named `--help`',
  ],
  [
    'a document that is `null` or a number/string/boolean; a `null` unit (`get --summary`, `resume`, `finalize done`); a `dependsOn` that is truthy and not an array on a unit not done (`resume`); a value JavaScript cannot make text (`{"toString":0}`, or an array holding one) where the original converts it: `schemaVersion` (every mutating verb), a `dependsOn` id of a unit not done (`resume`), a required phase, a coverage receipt id or a required validation\'s status (`finalize done`); a truthy `requiredPhases` that is not an array (`finalize done`)',
    'crashes with a TypeError message (exit 1)',
    'exit 1 with a message naming the file and the JSON Pointer to fix',
    'the same exit code, a message that says what to fix',
  ],
  [
    '`gc` over a runs folder holding a file whose JSON is `null`, or a terminal run whose `updatedAt` cannot be made text (`{"toString":0}`)',
    'crashes part-way: the runs before it in directory order are archived (exit 1)',
    'archives every other eligible run, leaves that file in place, names it on stderr, exit 1',
    'the outcome no longer depends on directory order',
  ],
  [
    'unit id or phase name `__proto__` (also `prototype`, `constructor`)',
    'exit 0, the unit or phase is written onto a prototype and lost (only `updatedAt` changes)',
    'exit 1, file untouched',
    'a write that reports success must not lose the data',
  ],
  [
    '`validation <file> constructor` (any name of `Object.prototype`)',
    'exit 0, records a `finalValidation` without a status',
    'exit 1: only `green`, `red`, `pass`, `ok`, `fail`',
    'a verdict nobody gave must not be recorded',
  ],
  [
    'a mutating verb on a document that is an array; `unit` on a unit that is an array',
    'exit 0, rewrites the array unchanged',
    'exit 1: not a status document',
    'reporting success for a write that did nothing misleads the caller',
  ],
  [
    '`unit` when `units` is an array, `phase` when `phases` is an array',
    'exit 0: the unit or phase is set on the array, which JSON drops (only `updatedAt` changes)',
    'exit 1 with what to fix',
    'a write that reports success must not lose the data',
  ],
  [
    '`units` that is not an object (a string, an array, a number) in `resume`, `get --summary`, `finalize done`',
    "walks `units || {}`: a string's characters or an array's indexes become unit ids, a number gives none",
    'exit 1 with what to fix',
    'characters are not units, and `finalize done` must not pass a run whose units it cannot see',
  ],
  [
    'a message quoting file or argument text that holds a control character (a line feed in a JSON parse excerpt, an escape sequence in an id)',
    'prints it raw',
    'shows it escaped (`\\n`, `\\x1b`)',
    'text from a file must never act on the terminal',
  ],
  [
    '`get` and `resume` of a document holding a secret-looking value (the pattern table of `ckpt team`)',
    'prints it as written',
    'prints `[REDACTED:<kind>]` in its place; `--show-secrets` prints it as written',
    'secrets never leave ckpt by accident (a terminal log, a CI page, a pasted output)',
  ],
  [
    'a secret-looking `--note` (`unit`, `validation`), `--result` (`finalize`), or item `detail`/`title`',
    'writes it',
    'exit 2, the file untouched; the message names the field and the pattern kind, never the value',
    'a checkpoint is read, shared and committed: it must not hold a credential',
  ],
  [
    'a status file that is not valid UTF-8',
    'decodes it with U+FFFD replacements and writes them back',
    'exit 1: cannot read/parse, the file is untouched',
    'the replaced bytes would be lost for good',
  ],
  [
    '`init` while `<id>.events.jsonl` exists beside the file; any write while the file matches no state of that log',
    'ignores the log and writes the file',
    'refuses (exit 2) and says how to choose: move the log away, or `ckpt ulpi rebuild <file> --force`',
    'replaying the log over the file would silently bring back an older or another run',
  ],
];

const row = (cells: readonly string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;

/** Markdown shown on the spec page after the document table. */
export function ulpiSpecSection(): string {
  return [
    '## `ckpt ulpi` and the original checkpoint.mjs',
    '',
    '`ckpt ulpi <verb>` behaves as `node checkpoint.mjs <verb>` of checkpoint-resume (ulpi-io/skills-autonomous-engineering',
    'at 2b62153): same exit codes (0 ok, 1 usage or parse error, 2 refusal), same stdout, same stderr after the program',
    'prefix (`ckpt: ` where the original prints `checkpoint: `; the usage line names `ckpt ulpi`), same resulting files.',
    '',
    "- Words are read as the original reads them: `<verb> <file>` first, then the verb's positionals (a flag placed",
    "  before them is taken as a positional); an option's value is the word after its first occurrence, and a",
    '  missing value or one starting with `--` is an error (`option --task is missing its value`); unknown options',
    '  and extra words are ignored; no arguments, or a verb without a file, print the one usage line (exit 1).',
    '- `finalize done` refuses with every reason the original lists, in its order: units not done, phases blocked,',
    '  required phases not done, open findings, then for a coordinator `pipeline`: a missing coverage receipt, or',
    '  the intake binding (`intakePath`, `intakeFileSha`/`intakeScopeSha` sha256, `intakeSelection`, a non-empty',
    '  `intakeScope` of items with id/title/source, receipt ids equal to intake ids, totals agreeing) followed by the',
    '  receipt checks (total, groups, repeated or invalid ids, errors, uncovered items); last, a required validation.',
    '- Timestamps are taken after the lock is acquired, so `updatedAt` never goes backwards under contention.',
    '  `CKPT_NOW=<ISO time>` freezes the clock of the stamps ckpt writes (for tests).',
    '- `item --json` appends any JSON value as the original does and keeps a caller-supplied `at` (also a number);',
    '  `resolve` prints the ids it moved as given; `schemaVersion` is kept when it compares `>= 2`, as found.',
    '',
    'The differential suite (`apps/cli/test/ulpi-differential.test.ts`) runs every case of',
    '`test-fixtures/ulpi/differential/` against ckpt: arguments and a starting tree, with the exit code, stdout,',
    'stderr and resulting files recorded from the original by',
    '`node apps/cli/scripts/ulpi-differential/record.mjs <checkout>/checkpoint-resume/scripts/checkpoint.mjs`',
    '(both tools see the same frozen clock). A case where ckpt answers differently on purpose carries a `ckpt` block',
    'with what ckpt gives and why.',
    '',
    '### Differences kept on purpose',
    '',
    row(['input', 'original', 'ckpt', 'why']),
    '|---|---|---|---|',
    ...KEPT.map(row),
    '',
    'A file deleted while its `<id>.events.jsonl` remains stays deleted: a write exits 1 as the original does (it',
    'cannot read the file), and says that `ckpt ulpi rebuild <file>` restores the logged run.',
    '',
    'A write that cannot land (no space, quota, file size limit, read-only disk, permission denied) exits 4 with',
    '`could not write <path>: <reason>`, where the original exits 1. With an event log, one command is one',
    'transaction: its lines carry `tx: {i, n}` (the original reads past it), the append is one write() that is cut',
    'back on a short write, and replay ignores a trailing transaction that did not land whole',
    '(`ulpi/event-log-torn-transaction`).',
    '',
    'ckpt also has verbs and flags the original lacks: `init --event-log`, `replay`, `rebuild [--force]`,',
    '`reconcile --git`, and `ckpt migrate`.',
  ].join('\n');
}
