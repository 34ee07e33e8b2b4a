import { allDone, doc, F, fin, finalizable, pipeline, unit } from './common.mjs';

/** A JSON value JavaScript cannot turn into text: `String`, `>=`, `join` and a lookup by key throw on it. */
const NO_TEXT = { toString: 0 };

// Where the original meets such a value it throws "Cannot convert object to primitive value" (exit 1, nothing
// written); ckpt stops there too and names the value to fix. Where the original never converts it, both answer.
export const noText = [
  {
    name: 'no-text-schema-version-unit',
    description: 'unit on a document whose schemaVersion cannot be compared with 2 (the original crashes)',
    args: ['unit', F, 'a', 'done'],
    files: { [F]: doc({ schemaVersion: NO_TEXT }) },
  },
  {
    name: 'no-text-schema-version-item',
    description:
      'item on a document whose schemaVersion is an array holding such a value (the original crashes)',
    args: ['item', F, '--json', '{"kind":"x"}'],
    files: { [F]: doc({ schemaVersion: [NO_TEXT] }) },
  },
  {
    name: 'no-text-schema-version-get',
    description: 'get reads such a schemaVersion without converting it',
    args: ['get', F, '--summary'],
    files: { [F]: doc({ schemaVersion: NO_TEXT }) },
  },
  {
    name: 'no-text-depends-on-resume',
    description: 'resume with a dependency id that cannot be made text (the original crashes)',
    args: ['resume', F],
    files: { [F]: doc({ units: { a: unit('pending'), b: unit('pending', { dependsOn: ['a', NO_TEXT] }) } }) },
  },
  {
    name: 'no-text-depends-on-done-unit',
    description: 'resume skips a done unit before reading its dependencies',
    args: ['resume', F],
    files: { [F]: doc({ units: { ...allDone, b: unit('done', { dependsOn: [NO_TEXT] }) } }) },
  },
  fin(
    'no-text-required-phase',
    'finalize done with a required phase that cannot be made text (the original crashes)',
    finalizable({ phases: { build: { status: 'done' } }, requiredPhases: ['build', NO_TEXT] }),
  ),
  fin(
    'no-text-required-phases-string',
    'finalize done with requiredPhases a string (the original crashes: it has no filter)',
    finalizable({ requiredPhases: 'build' }),
  ),
  fin(
    'no-text-required-phases-null',
    'finalize done with requiredPhases null: none required',
    finalizable({ requiredPhases: null }),
  ),
  fin(
    'no-text-coverage-id',
    'finalize done with a receipt id that cannot be made text (the original crashes)',
    finalizable({ pipeline: pipeline({}, { dropped: ['s2', NO_TEXT] }) }),
  ),
  fin(
    'no-text-validation-status',
    'finalize done with a required validation whose status cannot be made text (the original crashes)',
    finalizable({ requireValidation: true, finalValidation: { status: NO_TEXT } }),
  ),
  fin(
    'no-text-validation-status-not-required',
    'finalize done does not read the validation status when none is required',
    finalizable({ finalValidation: { status: NO_TEXT } }),
  ),
  {
    name: 'no-text-gc-updated-at',
    description: 'gc over a terminal run whose updatedAt cannot be made text (the original crashes)',
    args: ['gc', '.ulpi/runs', '--keep-days', '0'],
    files: {
      '.ulpi/runs/a.json': doc({ status: 'done', updatedAt: '2020-01-01T00:00:00Z' }),
      '.ulpi/runs/b.json': doc({ status: 'done', updatedAt: NO_TEXT }),
      '.ulpi/runs/c.json': doc({ status: 'done', updatedAt: '2020-01-01T00:00:00Z' }),
    },
  },
];
