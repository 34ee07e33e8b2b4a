import type { Finding } from '../../findings/finding.js';
import type { CheckedDocument } from '../dialect.js';
import {
  ARTIFACT_KINDS,
  CANDIDATE_SOURCES,
  CONVERGENCE_STATUSES,
  HARNESS_ACTIONS,
  LAST_ACTIONS,
  RUN_STATES,
  RUNTIME_ACTIONS,
  STOP_REASONS,
} from './constants.js';
import { findingIn, obj } from './doc-util.js';

// Fields whose value only describes what happened: OpenCode++ never reads them back to decide where a run resumes,
// so a value a newer release adds is not an error. What a resume needs (currentPhase, completedPhases,
// nextAction.type, schemaVersion) stays strict in the schemas.

interface Vocabulary {
  readonly name: string;
  readonly values: readonly string[];
}
/** A JSON Pointer pattern (`*` = every array item) and the values the field is known to take. */
type Field = readonly [string, Vocabulary];

const ACTION: Vocabulary = { name: 'Harness decision action', values: HARNESS_ACTIONS };
const KIND: Vocabulary = { name: 'artifact kind', values: ARTIFACT_KINDS };
const SOURCE: Vocabulary = { name: 'candidate source', values: CANDIDATE_SOURCES };
const STATUS: Vocabulary = { name: 'convergence status', values: CONVERGENCE_STATUSES };
const STOP: Vocabulary = { name: 'stop reason', values: STOP_REASONS };
const RUN_STATE: Vocabulary = { name: 'runtime state', values: RUN_STATES };
const LAST_ACTION: Vocabulary = { name: 'last action', values: LAST_ACTIONS };
const RUNTIME_ACTION: Vocabulary = { name: 'runtime action', values: RUNTIME_ACTIONS };

const candidate = (at: string): Field[] => [
  [`${at}/action`, ACTION],
  [`${at}/source`, SOURCE],
  [`${at}/artifacts/*/kind`, KIND],
];
const arbitration = (at: string): Field[] => [
  ...candidate(`${at}/selectedCandidate`),
  ...candidate(`${at}/supportingCandidates/*`),
];
const decision = (at: string): Field[] => [
  [`${at}/action`, ACTION],
  [`${at}/artifacts/*/kind`, KIND],
  ...arbitration(`${at}/arbitration`),
];
const convergence = (at: string): Field[] => [
  [`${at}/status`, STATUS],
  [`${at}/stopReason`, STOP],
  [`${at}/fingerprint/state/decisionAction`, ACTION],
];

const FIELDS: Readonly<Record<string, readonly Field[]>> = {
  'agent-context/task-state': [
    ['/state', RUN_STATE],
    ['/previousState', RUN_STATE],
    ['/lastAction', LAST_ACTION],
    ['/allowedActions/*', RUNTIME_ACTION],
  ],
  'agent-context/orchestrator-state': [...decision('/latestDecision'), ...convergence('/convergence')],
  'agent-context/decision': [
    ...decision('/decision'),
    ...arbitration('/arbitration'),
    ...convergence('/convergence'),
  ],
  'agent-context/iteration': [
    ['/summary/decision', ACTION],
    ['/summary/convergence', STATUS],
    ...convergence('/convergence'),
  ],
};

/** Every [pointer, value] a pattern reaches in a value. */
function reach(value: unknown, segments: readonly string[], pointer = ''): [string, unknown][] {
  if (segments.length === 0) return [[pointer, value]];
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '*')
    return Array.isArray(value) ? value.flatMap((item, i) => reach(item, rest, `${pointer}/${i}`)) : [];
  const o = obj(value);
  return o && Object.hasOwn(o, head) ? reach(o[head], rest, `${pointer}/${head}`) : [];
}

const loose = (s: string) => s.toLowerCase().replace(/[-_ ]/g, '');

/** Warnings for descriptive fields holding a string outside the values the newest known release writes. */
export function unknownValueFindings(doc: CheckedDocument, v: Record<string, unknown>): Finding[] {
  const out: Finding[] = [];
  for (const [pattern, vocabulary] of FIELDS[doc.kind ?? ''] ?? []) {
    for (const [pointer, value] of reach(v, pattern.split('/').slice(1))) {
      if (typeof value !== 'string' || vocabulary.values.includes(value)) continue;
      const near = vocabulary.values.find((x) => loose(x) === loose(value));
      out.push(
        findingIn(
          doc,
          pointer,
          'agent-context/unknown-value',
          `"${value}" is not a known ${vocabulary.name}${near ? ` (did you mean "${near}"?)` : ` (${vocabulary.values.join(', ')})`}`,
          'a newer OpenCode++ release may write it; ckpt shows it as written and judges nothing that depends on it',
        ),
      );
    }
  }
  return out;
}
