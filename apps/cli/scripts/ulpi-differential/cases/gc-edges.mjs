import { doc, F, finalizable, T0, T1, unit, v1 } from './common.mjs';

export const gcEdges = [
  // ── gc ──────────────────────────────────────────────────────────────────────────────────────────────────
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

  // ── more argument and input edges ───────────────────────────────────────────────────────────────────────
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

  // ── kept differences (see the ulpi spec page) ───────────────────────────────────────────────────────────
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
