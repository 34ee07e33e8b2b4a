// The differential cases: (arguments, starting tree) for each verb of checkpoint.mjs, one file per group of verbs.
// record.mjs runs the original on each and writes test-fixtures/ulpi/differential/<name>.json;
// apps/cli/test/ulpi-differential.test.ts runs ckpt on the same words and tree.

import { finalize } from './cases/finalize.mjs';
import { gcEdges } from './cases/gc-edges.mjs';
import { getResume } from './cases/get-resume.mjs';
import { itemsValidation } from './cases/items-validation.mjs';
import { noText } from './cases/no-text.mjs';
import { unitPhase } from './cases/unit-phase.mjs';
import { wordsInit } from './cases/words-init.mjs';

export const cases = [
  ...wordsInit,
  ...unitPhase,
  ...getResume,
  ...itemsValidation,
  ...finalize,
  ...gcEdges,
  ...noText,
];
