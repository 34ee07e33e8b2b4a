import { allDone, doc, F, T0, v1 } from './common.mjs';

export const unitPhase = [
  // ── unit ────────────────────────────────────────────────────────────────────────────────────────────────
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

  // ── phase ───────────────────────────────────────────────────────────────────────────────────────────────
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
    name: 'phase-over-an-array',
    description:
      'phase over a phase stored as an array or a string: its items and characters are spread into keys',
    args: ['phase', F, 'build', 'running'],
    files: { [F]: doc({ phases: { build: ['x', { y: 1 }], lint: 'ab' } }) },
  },
  {
    name: 'phase-over-a-string',
    description: 'phase over a phase stored as a string: its characters are spread into keys',
    args: ['phase', F, 'lint', 'done'],
    files: { [F]: doc({ phases: { lint: 'ab' } }) },
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
];
