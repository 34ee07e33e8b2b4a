import type { Finding } from '../../findings/finding.js';
import type { CheckedDocument } from '../dialect.js';
import { HARNESS_ACTIONS } from './constants.js';
import { type ConvergenceContext, convergenceProblems } from './convergence.js';
import { findingIn, obj, short, strings } from './doc-util.js';
import { hashFingerprintState, normalizeFingerprintList } from './fingerprint.js';

const LISTS = ['blockingFindingIds', 'blockingGateIds', 'missingEvidence', 'requiredCommands'] as const;
const TEXTS = ['workingTreeHash', 'decisionAction', 'contextFreshness', 'contextDrift'] as const;
/**
 * True when a stored fingerprint state has every field with the right type (else the schema reports it). taskId
 * and sessionId come together: releases that fingerprint a task and session write both, the first releases neither.
 */
export function wellFormedState(
  state: Record<string, unknown> | undefined,
): state is Record<string, unknown> {
  if (!state) return false;
  const ids =
    (state.taskId === undefined && state.sessionId === undefined) ||
    (typeof state.taskId === 'string' && typeof state.sessionId === 'string');
  return ids && TEXTS.every((k) => typeof state[k] === 'string') && LISTS.every((k) => strings(state[k]));
}

/** The array fields of a stored state that are not normalized (empty values, duplicates, not in locale order). */
export function unnormalizedFields(state: Record<string, unknown>): string[] {
  return LISTS.filter((k) => {
    const list = state[k] as string[];
    const norm = normalizeFingerprintList(list);
    return norm.length !== list.length || norm.some((v, i) => v !== list[i]);
  });
}

/** Verdict on one stored fingerprint: its recomputed value and what is wrong with it. */
export interface FingerprintVerdict {
  readonly stored: string;
  readonly computed: string;
  readonly matches: boolean;
  readonly unnormalized: readonly string[];
}

/** Recomputes a stored `{schemaVersion, value, state}`; undefined when it is not well-formed enough to judge. */
export function judgeFingerprint(fp: unknown): FingerprintVerdict | undefined {
  const f = obj(fp);
  const state = obj(f?.state);
  if (!f || typeof f.value !== 'string' || !wellFormedState(state)) return undefined;
  const computed = hashFingerprintState(state);
  const unnormalized = unnormalizedFields(state);
  // A state that only lost its normal form (re-sorted by hand) still proves its value when the normal form hashes to it.
  let matches = computed === f.value;
  if (!matches && unnormalized.length > 0) {
    const norm = { ...state };
    for (const k of LISTS) norm[k] = normalizeFingerprintList(state[k] as string[]);
    matches = hashFingerprintState(norm) === f.value;
  }
  return { stored: f.value, computed, matches, unnormalized };
}

/** Findings for a convergence record at `base` (e.g. `/convergence`): fingerprint value, normal form, status. */
export function convergenceFindings(
  doc: CheckedDocument,
  base: string,
  conv: Record<string, unknown>,
  ctx: ConvergenceContext,
): Finding[] {
  const out: Finding[] = [];
  const fp = obj(conv.fingerprint);
  const verdict = judgeFingerprint(fp);
  if (verdict && !verdict.matches)
    out.push(
      findingIn(
        doc,
        `${base}/fingerprint/value`,
        'agent-context/fingerprint-mismatch',
        `stored fingerprint ${short(verdict.stored)}… is not the sha256 of its stored state (${short(verdict.computed)}…)`,
        'recompute it with `ckpt agent-context fingerprint <file>`',
      ),
    );
  if (verdict && verdict.unnormalized.length > 0)
    out.push(
      findingIn(
        doc,
        `${base}/fingerprint/state/${verdict.unnormalized[0]}`,
        'agent-context/fingerprint-not-normalized',
        `the persisted fingerprint state is not normalized: ${verdict.unnormalized.join(', ')} must drop empty values and duplicates and be sorted with localeCompare`,
      ),
    );
  // Values the schema already rejects (an unknown status or stop reason) are not judged twice.
  const reasons = [
    undefined,
    'terminal-decision',
    'repeated-state/no-progress',
    'max-loops-reached',
    'executor-failure',
  ];
  // Nor is a record whose raw action a newer release added (agent-context/unknown-value): its class is unknown.
  const raw = obj(fp?.state)?.decisionAction;
  if (
    !verdict ||
    !isConvergenceStatus(conv.status) ||
    !reasons.includes(conv.stopReason as string) ||
    (typeof raw === 'string' && !HARNESS_ACTIONS.includes(raw))
  )
    return out;
  const problems = convergenceProblems(
    {
      status: conv.status,
      value: verdict.stored,
      previousFingerprint: conv.previousFingerprint,
      repeated: conv.repeated,
      shouldStop: conv.shouldStop,
      stopReason: conv.stopReason,
      rawAction: obj(fp?.state)?.decisionAction,
    },
    ctx,
  );
  if (problems.length > 0)
    out.push(
      findingIn(
        doc,
        `${base}/status`,
        'agent-context/convergence-mismatch',
        `convergence does not follow from its inputs: ${problems.join('; ')}`,
      ),
    );
  return out;
}

const STATUSES = ['progressing', 'terminal', 'repeated-state', 'max-loops-reached', 'executor-failure'];

/** True for one of the five convergence statuses. */
export function isConvergenceStatus(v: unknown): boolean {
  return typeof v === 'string' && STATUSES.includes(v);
}
