import { doc, F, fin, finalizable, pipeline, sha, T0, T1 } from './common.mjs';

export const finalize = [
  // ── finalize ────────────────────────────────────────────────────────────────────────────────────────────
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
];
