// The differential cases: (arguments, starting tree) for each verb of checkpoint.mjs. record.mjs runs the original
// on each and writes test-fixtures/ulpi/differential/<name>.json; apps/cli/test/ulpi-differential.test.ts runs ckpt.
// F is the status file every case works on; paths are relative to the case's scratch folder.
export const F = '.ulpi/runs/r.json';
const T0 = '2026-01-05T10:00:00Z';
const T1 = '2026-01-05T11:00:00Z';

const unit = (status, extra = {}) => ({
  status,
  dependsOn: [],
  note: '',
  createdAt: T0,
  updatedAt: T0,
  ...extra,
});

/** A v2 document as init writes it, with overrides. */
export const doc = (over = {}) => ({
  schemaVersion: 2,
  id: 'r',
  task: 'demo',
  status: 'running',
  createdAt: T0,
  updatedAt: T1,
  phases: {},
  units: { a: unit('pending'), b: unit('pending', { dependsOn: ['a'] }) },
  openItems: [],
  resolvedItems: [],
  result: null,
  ...over,
});

const allDone = {
  a: unit('done', { finishedAt: T1 }),
  b: unit('done', { dependsOn: ['a'], finishedAt: T1 }),
};
const v1 = {
  schemaVersion: 1,
  id: 'lint-sweep-20260812T140210Z',
  status: 'running',
  units: { a: { status: 'done', dependsOn: [] }, b: { status: 'pending', dependsOn: ['a'] } },
  updatedAt: '20260812T140210Z',
};
const sha = (c) => c.repeat(64);
/** A coordinator pipeline whose receipt is bound to its intake snapshot (finalize done accepts it). */
const pipeline = (over = {}, cover = {}) => ({
  intakePath: '.ulpi/intake/r.json',
  intakeFileSha: sha('a'),
  intakeScopeSha: sha('b'),
  intakeSelection: 'all',
  intakeScope: [
    { id: 's1', title: 'Login', source: 'issue#1' },
    { id: 's2', title: 'Logout', source: 'issue#2' },
  ],
  scopeCoverage: { total: 2, covered: ['s1'], dropped: ['s2'], uncovered: [], errors: [], ...cover },
  ...over,
});
const finalizable = (over = {}) => doc({ units: allDone, ...over });
const fin = (name, description, d, args = ['finalize', F, 'done']) => ({
  name,
  description,
  args,
  files: { [F]: d },
});

export const cases = [
  // ── argument parsing ──────────────────────────────────────────────────────────────────────────────
  { name: 'args-none', description: 'no arguments: the one usage line', args: [] },
  { name: 'args-verb-only', description: 'a verb without a file: the usage line', args: ['unit'] },
  { name: 'args-unknown-verb', description: 'an unknown verb with a file', args: ['frobnicate', F] },
  {
    name: 'args-unknown-verb-no-file',
    description: 'an unknown verb alone: the usage line',
    args: ['frobnicate'],
  },

  // ── init ──────────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'init-basic',
    description: 'init with units and an id',
    args: ['init', F, '--task', 'demo', '--units', 'a, b,,c', '--id', 'demo'],
  },
  {
    name: 'init-default-id',
    description: 'init without --id: run-YYYY-MM-DD-HHMMSSZ',
    args: ['init', F, '--task', 'demo'],
  },
  { name: 'init-missing-task', description: 'init without --task', args: ['init', F, '--units', 'a'] },
  { name: 'init-empty-task', description: 'an empty --task', args: ['init', F, '--task', ''] },
  {
    name: 'init-task-without-value',
    description: 'a flag followed by another flag has no value',
    args: ['init', F, '--task', '--units', 'a'],
  },
  { name: 'init-task-last', description: 'a flag at the end has no value', args: ['init', F, '--task'] },
  {
    name: 'init-task-single-dash-value',
    description: 'a value starting with one dash is a value',
    args: ['init', F, '--task', '-x', '--id', 'x'],
  },
  {
    name: 'init-repeated-option',
    description: 'the first of a repeated option wins',
    args: ['init', F, '--task', 'first', '--task', 'second', '--id', 'one', '--id', 'two'],
  },
  {
    name: 'init-unknown-flags-and-extras',
    description: 'unknown flags and extra positionals are ignored',
    args: ['init', F, 'extra', '--bogus', 'v', '--task', 't', '--id', 'x', '--zzz'],
  },
  {
    name: 'init-flags-before-file',
    description: 'the file is always the word after the verb',
    args: ['init', '--task', 't', F],
  },
  {
    name: 'init-required-phases-validation',
    description: '--required-phases and --require-validation',
    args: ['init', F, '--task', 't', '--id', 'x', '--required-phases', 'build, test', '--require-validation'],
  },
  {
    name: 'init-launch',
    description: 'a typed launch descriptor',
    args: [
      'init',
      F,
      '--task',
      't',
      '--id',
      'x',
      '--launch',
      '{"scriptPath":"autonomous-pipeline/scripts/pipeline.mjs","args":{"command":"resume","run":"x"}}',
    ],
  },
  {
    name: 'init-launch-bad-json',
    description: '--launch that is not JSON',
    args: ['init', F, '--task', 't', '--launch', '{nope'],
  },
  {
    name: 'init-launch-array',
    description: '--launch that is an array',
    args: ['init', F, '--task', 't', '--launch', '[]'],
  },
  {
    name: 'init-launch-null',
    description: '--launch null',
    args: ['init', F, '--task', 't', '--launch', 'null'],
  },
  {
    name: 'init-launch-number',
    description: '--launch 5',
    args: ['init', F, '--task', 't', '--launch', '5'],
  },
  {
    name: 'init-launch-no-script',
    description: '--launch without scriptPath',
    args: ['init', F, '--task', 't', '--launch', '{"args":{}}'],
  },
  {
    name: 'init-launch-bad-args',
    description: '--launch with array args',
    args: ['init', F, '--task', 't', '--launch', '{"scriptPath":"x.mjs","args":[]}'],
  },
  {
    name: 'init-unit-whitespace',
    description: 'a unit id with whitespace is refused at birth',
    args: ['init', F, '--task', 't', '--units', 'a b,c'],
  },
  {
    name: 'init-live-refused',
    description: 'init over a running run is refused',
    args: ['init', F, '--task', 't'],
    files: { [F]: doc() },
  },
  {
    name: 'init-live-needs-attention',
    description: 'init over a needs_attention run is refused',
    args: ['init', F, '--task', 't'],
    files: { [F]: doc({ status: 'needs_attention' }) },
  },
  {
    name: 'init-over-done',
    description: 'a done run may be re-initialised',
    args: ['init', F, '--task', 'again', '--id', 'r2'],
    files: { [F]: doc({ status: 'done', units: allDone }) },
  },
  {
    name: 'init-over-unparsable',
    description: 'init over a file that is not JSON',
    args: ['init', F, '--task', 't'],
    files: { [F]: '{"status": "running",\n' },
  },
  {
    name: 'init-over-array',
    description: 'init over a file holding an array',
    args: ['init', F, '--task', 't', '--id', 'x'],
    files: { [F]: [] },
  },
  {
    name: 'init-over-null',
    description: 'init over a file holding null (the original crashes)',
    args: ['init', F, '--task', 't', '--id', 'x'],
    files: { [F]: null },
  },

  // ── unit ──────────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'unit-in-progress',
    description: 'unit in_progress with a note and deps',
    args: ['unit', F, 'b', 'in_progress', '--note', 'going', '--deps', 'a, c'],
    files: { [F]: doc() },
  },
  {
    name: 'unit-done',
    description: 'unit done stamps finishedAt',
    args: ['unit', F, 'a', 'done'],
    files: { [F]: doc() },
  },
  {
    name: 'unit-new',
    description: 'an unknown unit id creates the unit',
    args: ['unit', F, 'z', 'blocked'],
    files: { [F]: doc() },
  },
  {
    name: 'unit-demote-refused',
    description: 'a done unit is never demoted',
    args: ['unit', F, 'a', 'pending'],
    files: { [F]: doc({ units: allDone }) },
  },
  {
    name: 'unit-bad-status',
    description: 'an unknown unit status',
    args: ['unit', F, 'a', 'finished'],
    files: { [F]: doc() },
  },
  {
    name: 'unit-missing-status',
    description: 'unit without a status',
    args: ['unit', F, 'a'],
    files: { [F]: doc() },
  },
  {
    name: 'unit-comma-id',
    description: 'a unit id with a comma',
    args: ['unit', F, 'a,b', 'done'],
    files: { [F]: doc() },
  },
  {
    name: 'unit-flags-before-positionals',
    description: 'positionals are the first words after the file',
    args: ['unit', F, '--note', 'x', 'a', 'done'],
    files: { [F]: doc() },
  },
  {
    name: 'unit-note-without-value',
    description: '--note followed by a flag',
    args: ['unit', F, 'a', 'done', '--note', '--deps', 'b'],
    files: { [F]: doc() },
  },
  {
    name: 'unit-empty-deps',
    description: '--deps "" clears dependsOn',
    args: ['unit', F, 'b', 'pending', '--deps', ''],
    files: { [F]: doc() },
  },
  {
    name: 'unit-extra-positional',
    description: 'an extra positional is ignored',
    args: ['unit', F, 'a', 'done', 'extra'],
    files: { [F]: doc() },
  },
  {
    name: 'unit-v1-upgrade',
    description: 'a mutating write upgrades v1 add-only',
    args: ['unit', F, 'b', 'in_progress'],
    files: { [F]: v1 },
  },
  {
    name: 'unit-schema-version-kept',
    description: 'a schemaVersion compared >= 2 is kept as found',
    args: ['unit', F, 'a', 'done'],
    files: { [F]: doc({ schemaVersion: '3' }) },
  },
  {
    name: 'unit-schema-version-replaced',
    description: 'a schemaVersion that is not >= 2 becomes 2',
    args: ['unit', F, 'a', 'done'],
    files: { [F]: doc({ schemaVersion: 'two' }) },
  },
  {
    name: 'unit-null-unit',
    description: 'a null unit is recreated',
    args: ['unit', F, 'a', 'done'],
    files: { [F]: doc({ units: { a: null } }) },
  },
  {
    name: 'unit-missing-file',
    description: 'unit on a missing file in an existing folder',
    args: ['unit', F, 'a', 'done'],
    files: { '.ulpi/runs/other.json': doc() },
  },
  {
    name: 'unit-missing-folder',
    description: 'unit on a file whose folder does not exist',
    args: ['unit', F, 'a', 'done'],
  },
  {
    name: 'unit-unparsable',
    description: 'unit on a file that is not JSON',
    args: ['unit', F, 'a', 'done'],
    files: { [F]: '{"units": ' },
  },
  {
    name: 'unit-number-doc',
    description: 'unit on a document that is a number (the original crashes)',
    args: ['unit', F, 'a', 'done'],
    files: { [F]: 5 },
  },
  {
    name: 'unit-stale-lock',
    description: 'a lock older than 5 s is stolen',
    args: ['unit', F, 'a', 'done'],
    files: { [F]: doc() },
    dirs: { [`${F}.lock`]: { mtime: '2020-01-01T00:00:00Z' } },
  },

  // ── phase ─────────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'phase-running',
    description: 'phase running sets currentPhase and startedAt',
    args: ['phase', F, 'build', 'running'],
    files: { [F]: doc() },
  },
  {
    name: 'phase-done',
    description: 'phase done keeps startedAt, stamps finishedAt',
    args: ['phase', F, 'build', 'done'],
    files: {
      [F]: doc({
        phases: { build: { status: 'running', updatedAt: T0, startedAt: T0 } },
        currentPhase: 'build',
      }),
    },
  },
  {
    name: 'phase-bad-status',
    description: 'an unknown phase status',
    args: ['phase', F, 'build', 'finished'],
    files: { [F]: doc() },
  },
  {
    name: 'phase-missing-name',
    description: 'phase without a name',
    args: ['phase', F],
    files: { [F]: doc() },
  },

  // ── get ───────────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'get-doc',
    description: 'get prints the document',
    args: ['get', F],
    files: { [F]: doc({ currentPhase: 'build' }) },
  },
  {
    name: 'get-summary',
    description: 'get --summary',
    args: ['get', F, '--summary'],
    files: {
      [F]: doc({
        units: { a: unit('done'), b: unit('blocked'), c: unit('dep_blocked'), d: unit('in_progress') },
      }),
    },
  },
  {
    name: 'get-summary-v1',
    description: 'get --summary of a v1 document without task',
    args: ['get', F, '--summary'],
    files: { [F]: v1 },
  },
  {
    name: 'get-summary-first',
    description: '--summary before the file: the file is the word after the verb',
    args: ['get', '--summary', F],
    files: { [F]: doc() },
  },
  { name: 'get-missing-file', description: 'get on a missing file', args: ['get', F] },
  {
    name: 'get-unparsable',
    description: 'get on a file that is not JSON',
    args: ['get', F],
    files: { [F]: '{"id": "r",' },
  },
  {
    name: 'get-null-doc',
    description: 'get on a document that is null',
    args: ['get', F],
    files: { [F]: null },
  },
  {
    name: 'get-summary-null-unit',
    description: 'get --summary with a null unit (the original crashes)',
    args: ['get', F, '--summary'],
    files: { [F]: doc({ units: { a: null, b: unit('done') } }) },
  },

  // ── resume ────────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'resume-chain',
    description: 'the resume set walks dep_blocked to the chain root',
    args: ['resume', F],
    files: {
      [F]: doc({
        units: {
          a: unit('done'),
          b: unit('blocked'),
          c: unit('pending', { dependsOn: ['b'] }),
          d: unit('pending', { dependsOn: ['a', 'c'] }),
          e: unit('in_progress'),
        },
      }),
    },
  },
  {
    name: 'resume-cycle',
    description: 'a dependency cycle stays dep_blocked',
    args: ['resume', F],
    files: {
      [F]: doc({
        units: { a: unit('pending', { dependsOn: ['b'] }), b: unit('pending', { dependsOn: ['a'] }) },
      }),
    },
  },
  {
    name: 'resume-unknown-dep',
    description: 'an unknown dependency counts as not done',
    args: ['resume', F],
    files: { [F]: doc({ units: { a: unit('pending', { dependsOn: ['ghost'] }) } }) },
  },
  {
    name: 'resume-v1-unchanged',
    description: 'resume never writes (a v1 file stays byte-identical)',
    args: ['resume', F],
    files: { [F]: v1 },
  },
  {
    name: 'resume-string-deps',
    description: 'a string dependsOn (the original crashes)',
    args: ['resume', F],
    files: { [F]: doc({ units: { a: unit('pending'), b: unit('pending', { dependsOn: 'a' }) } }) },
  },
  {
    name: 'resume-null-unit',
    description: 'a null unit (the original crashes)',
    args: ['resume', F],
    files: { [F]: doc({ units: { a: null, b: unit('pending') } }) },
  },

  // ── item / resolve ────────────────────────────────────────────────────────────────────────────────
  {
    name: 'item-object',
    description: 'an object gets a stable id and at',
    args: ['item', F, '--json', '{"kind":"decision","severity":"blocker","detail":"PCI"}'],
    files: { [F]: doc() },
  },
  {
    name: 'item-own-id-and-at',
    description: 'a caller-supplied id and at are kept',
    args: ['item', F, '--json', '{"id":"q","at":"2020-01-01T00:00:00Z","kind":"x"}'],
    files: { [F]: doc() },
  },
  {
    name: 'item-numeric-at',
    description: 'a numeric at is kept as given',
    args: ['item', F, '--json', '{"kind":"x","at":17}'],
    files: { [F]: doc() },
  },
  {
    name: 'item-any-values',
    description: 'any JSON value is appended as given',
    args: ['item', F, '--json', '["text",42,null,[1,[2]],true,{"id":"o"}]'],
    files: { [F]: doc() },
  },
  {
    name: 'item-scalar',
    description: 'a scalar --json',
    args: ['item', F, '--json', '"just text"'],
    files: { [F]: doc() },
  },
  {
    name: 'item-null',
    description: '--json null appends null and prints nothing',
    args: ['item', F, '--json', 'null'],
    files: { [F]: doc() },
  },
  {
    name: 'item-upsert',
    description: 're-reporting an item keeps its first at',
    args: ['item', F, '--json', '{"id":"q","kind":"y"}'],
    files: { [F]: doc({ openItems: [{ at: T0, id: 'q', kind: 'x' }, 'note'] }) },
  },
  { name: 'item-missing-json', description: 'item without --json', args: ['item', F], files: { [F]: doc() } },
  {
    name: 'item-bad-json',
    description: 'item --json that is not JSON',
    args: ['item', F, '--json', '{x}'],
    files: { [F]: doc() },
  },
  {
    name: 'item-json-without-value',
    description: '--json followed by a flag',
    args: ['item', F, '--json', '--ids'],
    files: { [F]: doc() },
  },
  {
    name: 'resolve-ids',
    description: 'resolve moves items to resolvedItems',
    args: ['resolve', F, '--ids', 'q, ghost'],
    files: { [F]: doc({ openItems: [{ at: T0, id: 'q', kind: 'x' }, 7] }) },
  },
  {
    name: 'resolve-json',
    description: 'resolve --json with an array, echoing the ids moved',
    args: ['resolve', F, '--json', '["q",5,"q"]'],
    files: { [F]: doc({ openItems: [{ at: T0, id: 'q', kind: 'x' }] }) },
  },
  {
    name: 'resolve-json-scalar',
    description: 'resolve --json with one id',
    args: ['resolve', F, '--json', '"q"'],
    files: { [F]: doc({ openItems: [{ at: T0, id: 'q', kind: 'x' }] }) },
  },
  {
    name: 'resolve-ids-first',
    description: '--ids wins over --json; the first --ids wins',
    args: ['resolve', F, '--json', '["p"]', '--ids', 'q', '--ids', 'p'],
    files: {
      [F]: doc({
        openItems: [
          { at: T0, id: 'q' },
          { at: T0, id: 'p' },
        ],
      }),
    },
  },
  {
    name: 'resolve-missing',
    description: 'resolve without --ids or --json',
    args: ['resolve', F],
    files: { [F]: doc() },
  },
  {
    name: 'resolve-bad-json',
    description: 'resolve --json that is not JSON',
    args: ['resolve', F, '--json', '[q]'],
    files: { [F]: doc() },
  },

  // ── validation ────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'validation-green',
    description: 'validation green with a note',
    args: ['validation', F, 'green', '--note', 'lint, unit'],
    files: { [F]: doc() },
  },
  {
    name: 'validation-alias',
    description: 'fail is red',
    args: ['validation', F, 'fail'],
    files: { [F]: doc() },
  },
  {
    name: 'validation-bad',
    description: 'an unknown verdict',
    args: ['validation', F, 'maybe'],
    files: { [F]: doc() },
  },
  {
    name: 'validation-missing',
    description: 'validation without a verdict',
    args: ['validation', F],
    files: { [F]: doc() },
  },

  // ── finalize ──────────────────────────────────────────────────────────────────────────────────────
  fin('finalize-done', 'finalize done when everything is closed', finalizable(), [
    'finalize',
    F,
    'done',
    '--result',
    '2/2',
  ]),
  fin('finalize-needs-attention', 'finalize needs_attention is never refused', doc(), [
    'finalize',
    F,
    'needs_attention',
    '--result',
    'partial',
  ]),
  fin('finalize-bad-status', 'an unknown final status', doc(), ['finalize', F, 'finished']),
  fin(
    'finalize-refused-everything',
    'every non-pipeline reason, in order',
    doc({
      phases: { build: { status: 'blocked', updatedAt: T0 } },
      requiredPhases: ['build', 'test'],
      openItems: ['x', { id: 'q' }],
      requireValidation: true,
    }),
  ),
  fin(
    'finalize-refused-validation-red',
    'a red final validation',
    finalizable({ requireValidation: true, finalValidation: { status: 'red', at: T1 } }),
  ),
  fin(
    'finalize-pipeline-ok',
    'a pipeline whose receipt is bound to its intake',
    finalizable({ pipeline: pipeline() }),
  ),
  fin(
    'finalize-pipeline-no-receipt',
    'a pipeline without scopeCoverage',
    finalizable({ pipeline: { intakePath: 'x' } }),
  ),
  fin(
    'finalize-pipeline-array-receipt',
    'scopeCoverage that is an array',
    finalizable({ pipeline: pipeline({ scopeCoverage: [] }) }),
  ),
  fin('finalize-pipeline-string', 'a pipeline that is a string', finalizable({ pipeline: 'yes' })),
  fin('finalize-pipeline-null', 'a null pipeline is no pipeline', finalizable({ pipeline: null })),
  fin(
    'finalize-intake-absent',
    'a receipt with no intake binding at all',
    finalizable({
      pipeline: { scopeCoverage: { total: 1, covered: ['s1'], dropped: [], uncovered: [], errors: [] } },
    }),
  ),
  fin(
    'finalize-intake-path-blank',
    'a blank intakePath',
    finalizable({ pipeline: pipeline({ intakePath: '  ' }) }),
  ),
  fin(
    'finalize-intake-sha-invalid',
    'intake shas that are not sha256 hex',
    finalizable({ pipeline: pipeline({ intakeFileSha: sha('A'), intakeScopeSha: 'abc' }) }),
  ),
  fin(
    'finalize-intake-selection-absent',
    'no intakeSelection',
    finalizable({ pipeline: pipeline({ intakeSelection: undefined }) }),
  ),
  fin(
    'finalize-intake-scope-empty',
    'an empty intakeScope',
    finalizable({ pipeline: pipeline({ intakeScope: [] }) }),
  ),
  fin(
    'finalize-intake-scope-bad-items',
    'intake items without an id, duplicated, without title/source',
    finalizable({
      pipeline: pipeline({
        intakeScope: [
          null,
          { id: 's1', title: 'Login', source: 'issue#1' },
          { id: 's1', title: 'Login', source: 'issue#1' },
          { id: 's2', title: ' ', source: 'x' },
          { id: 's3', title: 'x' },
        ],
      }),
    }),
  ),
  fin(
    'finalize-intake-receipt-mismatch',
    'intake ids absent from the receipt and receipt ids not in the intake',
    finalizable({ pipeline: pipeline({}, { covered: ['s1', 'x9'], dropped: [] }) }),
  ),
  fin(
    'finalize-intake-total-mismatch',
    'the total does not match the intake',
    finalizable({ pipeline: pipeline({}, { total: 3, covered: ['s1', 's3'], dropped: ['s2'] }) }),
  ),
  fin(
    'finalize-coverage-total-invalid',
    'a total that is not a positive integer',
    finalizable({ pipeline: pipeline({}, { total: '2' }) }),
  ),
  fin(
    'finalize-coverage-total-zero',
    'a total of 0',
    finalizable({ pipeline: pipeline({ intakeScope: [] }, { total: 0, covered: [], dropped: [] }) }),
  ),
  fin(
    'finalize-coverage-groups-not-arrays',
    'covered/dropped/uncovered that are not arrays',
    finalizable({ pipeline: pipeline({}, { covered: 's1', dropped: null, uncovered: undefined }) }),
  ),
  fin(
    'finalize-coverage-bad-and-repeated-ids',
    'invalid ids and an id in two groups',
    finalizable({ pipeline: pipeline({}, { covered: ['s1', '', 7], dropped: ['s2', 's1'] }) }),
  ),
  fin(
    'finalize-coverage-errors',
    'coverage errors that are not an array, or not empty',
    finalizable({ pipeline: pipeline({}, { errors: ['e1', 'e2'] }) }),
  ),
  fin(
    'finalize-coverage-errors-not-array',
    'coverage errors that are not an array',
    finalizable({ pipeline: pipeline({}, { errors: 'none' }) }),
  ),
  fin(
    'finalize-coverage-uncovered',
    'uncovered items',
    finalizable({ pipeline: pipeline({}, { dropped: [], uncovered: ['s2'] }) }),
  ),
  fin(
    'finalize-done-null-unit',
    'finalize done with a null unit (the original crashes)',
    finalizable({ units: { a: null } }),
  ),

  // ── gc ────────────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'gc-archives',
    description: 'gc archives old terminal runs, never running ones, recent ones or unparsable files',
    args: ['gc', '.ulpi/runs', '--keep-days', '7'],
    files: {
      '.ulpi/runs/old-done.json': doc({ status: 'done', updatedAt: '2020-01-01T00:00:00Z' }),
      '.ulpi/runs/old-aborted.json': doc({ status: 'aborted', updatedAt: '2020-01-01T00:00:00Z' }),
      '.ulpi/runs/old-running.json': doc({ updatedAt: '2020-01-01T00:00:00Z' }),
      '.ulpi/runs/future-done.json': doc({ status: 'done', updatedAt: '2099-01-01T00:00:00Z' }),
      '.ulpi/runs/no-stamp.json': doc({ status: 'done', updatedAt: undefined }),
      '.ulpi/runs/broken.json': '{"status":',
      '.ulpi/runs/notes.txt': 'not a run\n',
    },
  },
  { name: 'gc-no-dir', description: 'gc on a missing folder', args: ['gc', '.ulpi/runs'] },
  {
    name: 'gc-keep-days-bad',
    description: '--keep-days that is not a number',
    args: ['gc', '.ulpi/runs', '--keep-days', 'soon'],
    files: { '.ulpi/runs/a.json': doc({ status: 'done' }) },
  },
  {
    name: 'gc-keep-days-empty',
    description: '--keep-days "" is 0 days',
    args: ['gc', '.ulpi/runs', '--keep-days', ''],
    files: { '.ulpi/runs/a.json': doc({ status: 'done', updatedAt: '2020-01-01T00:00:00Z' }) },
  },
  {
    name: 'gc-keep-days-negative',
    description: 'a negative --keep-days is a value starting with one dash',
    args: ['gc', '.ulpi/runs', '--keep-days', '-1'],
    files: { '.ulpi/runs/a.json': doc({ status: 'done' }) },
  },
  {
    name: 'gc-null-json',
    description: 'gc over a file holding null (the original crashes)',
    args: ['gc', '.ulpi/runs', '--keep-days', '0'],
    files: {
      '.ulpi/runs/null.json': null,
      '.ulpi/runs/a.json': doc({ status: 'done', updatedAt: '2020-01-01T00:00:00Z' }),
    },
  },
  {
    name: 'gc-file-as-dir',
    description: 'gc given a file as the runs folder (the original crashes)',
    args: ['gc', F],
    files: { [F]: doc() },
  },
  {
    name: 'gc-keep-days-without-value',
    description: '--keep-days at the end has no value',
    args: ['gc', '.ulpi/runs', '--keep-days'],
    files: { '.ulpi/runs/a.json': doc({ status: 'done' }) },
  },

  // ── more argument and input edges ─────────────────────────────────────────────────────────────────
  {
    name: 'unit-deps-without-value',
    description: '--deps at the end has no value',
    args: ['unit', F, 'a', 'done', '--deps'],
    files: { [F]: doc() },
  },
  {
    name: 'unit-repeated-note',
    description: 'the first --note wins',
    args: ['unit', F, 'a', 'blocked', '--note', 'first', '--note', 'second'],
    files: { [F]: doc() },
  },
  {
    name: 'unit-dir-as-file',
    description: 'unit given a folder as the file',
    args: ['unit', '.ulpi/runs', 'a', 'done'],
    files: { [F]: doc() },
  },
  {
    name: 'get-dir-as-file',
    description: 'get given a folder as the file',
    args: ['get', '.ulpi/runs'],
    files: { [F]: doc() },
  },
  {
    name: 'init-dir-as-file',
    description: 'init given a folder as the file',
    args: ['init', '.ulpi/runs', '--task', 't'],
    files: { [F]: doc() },
  },
  {
    name: 'init-launch-without-value',
    description: '--launch at the end has no value',
    args: ['init', F, '--task', 't', '--launch'],
  },
  {
    name: 'init-empty-units',
    description: '--units "" gives no units',
    args: ['init', F, '--task', 't', '--id', 'x', '--units', ''],
  },
  {
    name: 'init-repeated-units',
    description: 'a unit named twice is one unit',
    args: ['init', F, '--task', 't', '--id', 'x', '--units', 'a,b,a'],
  },
  {
    name: 'get-summary-extra-words',
    description: 'extra words around --summary are ignored',
    args: ['get', F, 'x', '--summary', '--bogus'],
    files: { [F]: doc() },
  },
  {
    name: 'get-array-doc',
    description: 'get --summary of a document that is an array',
    args: ['get', F, '--summary'],
    files: { [F]: [1, 2] },
  },
  {
    name: 'resume-number-unit',
    description: 'a unit that is a number is eligible',
    args: ['resume', F],
    files: { [F]: doc({ units: { a: 5, b: unit('pending', { dependsOn: ['a'] }) } }) },
  },
  {
    name: 'resume-done-string-deps',
    description: 'a done unit with a string dependsOn is skipped',
    args: ['resume', F],
    files: {
      [F]: doc({ units: { a: unit('done', { dependsOn: 'x' }), b: unit('pending', { dependsOn: ['a'] }) } }),
    },
  },
  {
    name: 'item-json-last',
    description: '--json at the end has no value',
    args: ['item', F, '--json'],
    files: { [F]: doc() },
  },
  {
    name: 'item-resolved-id-again',
    description: 'an item whose id was resolved is opened again',
    args: ['item', F, '--json', '{"id":"q","kind":"x"}'],
    files: { [F]: doc({ resolvedItems: [{ at: T0, id: 'q', kind: 'x', resolvedAt: T1 }] }) },
  },
  {
    name: 'resolve-empty-ids',
    description: '--ids "" resolves nothing and prints []',
    args: ['resolve', F, '--ids', ''],
    files: { [F]: doc({ openItems: [{ at: T0, id: 'q' }] }) },
  },
  {
    name: 'resolve-numeric-id',
    description: 'resolve --json with a number matches an item whose id is that number',
    args: ['resolve', F, '--json', '[5]'],
    files: { [F]: doc({ openItems: [{ at: T0, id: 5 }] }) },
  },
  {
    name: 'validation-note-without-value',
    description: '--note at the end has no value',
    args: ['validation', F, 'green', '--note'],
    files: { [F]: doc() },
  },
  {
    name: 'finalize-result-without-value',
    description: '--result followed by a flag',
    args: ['finalize', F, 'aborted', '--result', '--x'],
    files: { [F]: doc() },
  },
  {
    name: 'finalize-aborted-keeps-result',
    description: 'finalize aborted without --result keeps result',
    args: ['finalize', F, 'aborted'],
    files: { [F]: doc({ result: 'half' }) },
  },
  {
    name: 'finalize-done-v1',
    description: 'finalize done of a finished v1 run upgrades it add-only',
    args: ['finalize', F, 'done'],
    files: { [F]: { ...v1, units: { a: { status: 'done', dependsOn: [] } } } },
  },
  {
    name: 'finalize-required-phase-missing',
    description: 'a required phase never started',
    args: ['finalize', F, 'done'],
    files: {
      [F]: finalizable({ requiredPhases: ['review'], phases: { build: { status: 'done', updatedAt: T0 } } }),
    },
  },
  {
    name: 'phase-skipped',
    description: 'phase skipped stamps finishedAt, not currentPhase',
    args: ['phase', F, 'docs', 'skipped'],
    files: { [F]: doc({ currentPhase: 'build' }) },
  },

  // ── kept differences (see the ulpi spec page) ──────────────────────────────────────────────────────
  {
    name: 'unit-proto-id',
    description: 'unit id __proto__ (the original writes it onto the prototype and loses it)',
    args: ['unit', F, '__proto__', 'done'],
    files: { [F]: doc() },
  },
  {
    name: 'phase-proto-name',
    description: 'phase name __proto__ (the original replaces the phases prototype and loses it)',
    args: ['phase', F, '__proto__', 'running'],
    files: { [F]: doc() },
  },
  {
    name: 'validation-constructor',
    description: 'validation constructor (the original looks it up on the prototype and records no status)',
    args: ['validation', F, 'constructor'],
    files: { [F]: doc() },
  },
  {
    name: 'unit-array-doc',
    description: 'unit on a document that is an array (the original rewrites the array unchanged)',
    args: ['unit', F, 'a', 'done'],
    files: { [F]: [] },
  },
  {
    name: 'resume-units-string',
    description: 'units that is a string (the original takes its characters for units)',
    args: ['resume', F],
    files: { [F]: doc({ units: 'ab' }) },
  },
  {
    name: 'finalize-done-units-array',
    description: 'units that is an array (the original takes its indexes for units)',
    args: ['finalize', F, 'done'],
    files: { [F]: doc({ units: [{ status: 'done' }] }) },
  },
  {
    name: 'unit-lock-held',
    description: 'a lock left by a writer that died just now: waited for, stolen once older than 5 s',
    args: ['unit', F, 'a', 'done'],
    files: { [F]: doc() },
    dirs: { [`${F}.lock`]: {} },
  },
  {
    name: 'unit-bom',
    description: 'a status file starting with a byte order mark',
    args: ['unit', F, 'a', 'done'],
    files: { [F]: `\ufeff${JSON.stringify(doc(), null, 2)}\n` },
  },
  {
    name: 'get-bom',
    description: 'get of a status file starting with a byte order mark',
    args: ['get', F, '--summary'],
    files: { [F]: `\ufeff${JSON.stringify(doc(), null, 2)}\n` },
  },
  {
    name: 'unit-array-unit',
    description:
      'unit on a unit that is an array (the original sets the status on the array and JSON drops it)',
    args: ['unit', F, 'a', 'done'],
    files: { [F]: doc({ units: { a: [] } }) },
  },
  {
    name: 'unit-string-unit',
    description: 'unit on a unit that is a string (the original crashes)',
    args: ['unit', F, 'a', 'done'],
    files: { [F]: doc({ units: { a: 'done' } }) },
  },
];
