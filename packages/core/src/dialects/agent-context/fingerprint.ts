import { createHash } from '../../util/crypto.js';
import { FINGERPRINT_V1 } from './constants.js';

/** What an iteration's fingerprint is computed from (the original's IterationStateFingerprintInput). */
export interface FingerprintInput {
  readonly workingTreeHash: string;
  /** The raw Harness decision action, before any convergence override. */
  readonly decisionAction: string;
  readonly blockingFindingIds: readonly string[];
  readonly blockingGateIds: readonly string[];
  readonly missingEvidence: readonly string[];
  readonly requiredCommands: readonly string[];
  readonly contextFreshness: string;
  readonly contextDrift: string;
  readonly taskId?: string;
  readonly sessionId?: string;
}

/** The normalized state that is hashed and persisted beside the value. */
export interface FingerprintState {
  workingTreeHash: string;
  decisionAction: string;
  blockingFindingIds: string[];
  blockingGateIds: string[];
  missingEvidence: string[];
  requiredCommands: string[];
  contextFreshness: string;
  contextDrift: string;
  taskId: string;
  sessionId: string;
}

export interface IterationFingerprint {
  schemaVersion: typeof FINGERPRINT_V1;
  /** sha256 hex of the stable stringify of `{schemaVersion, state}`. */
  value: string;
  state: FingerprintState;
}

/**
 * Drops empty strings, removes duplicates and sorts with `String.prototype.localeCompare` (the runtime's default
 * collation, as the original does): a code-point sort would order `Npm` before `apt` and change the hash.
 */
export function normalizeFingerprintList(items: readonly string[]): string[] {
  const kept = items.filter((s) => Boolean(s));
  return Array.from(new Set(kept)).sort((a, b) => a.localeCompare(b));
}

/**
 * The original's stable stringify: object keys sorted with localeCompare, no whitespace. Its quirks are kept on
 * purpose so hashes match: `undefined` inside an object is written as the bare word `undefined`, inside an array
 * as nothing (Array#join writes undefined as an empty string).
 */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map((item) => stringifyOrUndefined(item) ?? '').join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    const parts = entries.map(
      ([key, item]) => `${JSON.stringify(key)}:${String(stringifyOrUndefined(item))}`,
    );
    return `{${parts.join(',')}}`;
  }
  return String(JSON.stringify(value));
}

function stringifyOrUndefined(value: unknown): string | undefined {
  if (Array.isArray(value) || (value !== null && typeof value === 'object')) return stableStringify(value);
  return JSON.stringify(value) as string | undefined;
}

/** The normalized fingerprint state of an input: arrays normalized, absent taskId/sessionId as "". */
export function normalizeFingerprintState(input: FingerprintInput): FingerprintState {
  return {
    workingTreeHash: input.workingTreeHash,
    decisionAction: input.decisionAction,
    blockingFindingIds: normalizeFingerprintList(input.blockingFindingIds),
    blockingGateIds: normalizeFingerprintList(input.blockingGateIds),
    missingEvidence: normalizeFingerprintList(input.missingEvidence),
    requiredCommands: normalizeFingerprintList(input.requiredCommands),
    contextFreshness: input.contextFreshness,
    contextDrift: input.contextDrift,
    taskId: input.taskId ?? '',
    sessionId: input.sessionId ?? '',
  };
}

/** sha256 hex of a state exactly as given (no normalization): what a stored value must equal. */
export function hashFingerprintState(state: unknown): string {
  const serialized = stableStringify({ schemaVersion: FINGERPRINT_V1, state });
  return createHash('sha256').update(serialized).digest('hex');
}

/**
 * The deterministic iteration fingerprint, bit-for-bit the value OpenCode++ computes: the same logical state
 * gives the same value whatever the order or duplicates of its array inputs.
 *
 * @example
 * ```ts
 * const fp = fingerprint({
 *   workingTreeHash: 'b1946ac9…', decisionAction: 'repair',
 *   blockingFindingIds: [], blockingGateIds: ['evidence.no-test-after-edit'],
 *   missingEvidence: ['required_tests_passed'], requiredCommands: ['npm test -- auth'],
 *   contextFreshness: 'fresh', contextDrift: 'clean', taskId: 'fix-login', sessionId: 'orchestrator',
 * });
 * fp.value; // 64 hex characters; fp.state is what the original persists beside it
 * ```
 */
export function fingerprint(input: FingerprintInput): IterationFingerprint {
  const state = normalizeFingerprintState(input);
  return { schemaVersion: FINGERPRINT_V1, value: hashFingerprintState(state), state };
}
