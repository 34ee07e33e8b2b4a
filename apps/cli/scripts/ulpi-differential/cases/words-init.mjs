import { allDone, doc, F } from './common.mjs';

export const wordsInit = [
  // ── argument parsing ────────────────────────────────────────────────────────────────────────────────────
  { name: 'args-none', description: 'no arguments: the one usage line', args: [] },
  { name: 'args-verb-only', description: 'a verb without a file: the usage line', args: ['unit'] },
  { name: 'args-unknown-verb', description: 'an unknown verb with a file', args: ['frobnicate', F] },
  {
    name: 'args-unknown-verb-no-file',
    description: 'an unknown verb alone: the usage line',
    args: ['frobnicate'],
  },

  // ── init ────────────────────────────────────────────────────────────────────────────────────────────────
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
];
