import { doc, F, unit, v1 } from './common.mjs';

export const getResume = [
  // ── get ─────────────────────────────────────────────────────────────────────────────────────────────────
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

  // ── resume ──────────────────────────────────────────────────────────────────────────────────────────────
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
  {
    name: 'resume-non-string-deps',
    description: 'dependsOn values that are not strings are looked up as keys and printed as written',
    args: ['resume', F],
    files: {
      [F]: doc({
        units: {
          a: unit('pending', { dependsOn: [null] }),
          b: unit('pending', { dependsOn: [1] }),
          1: unit('done'),
          c: unit('pending', { dependsOn: [{ x: 1 }, true] }),
          d: unit('pending', { dependsOn: ['c'] }),
        },
      }),
    },
  },
];
