import {
  CONVERGENCE_V1,
  type ConvergenceStatus,
  type ConvergenceStopReason,
  STOP_REASON,
  TERMINAL_ACTIONS,
} from './constants.js';
import type { IterationFingerprint } from './fingerprint.js';

/** A convergence result as OpenCode++ writes it into iteration.json, decision.json and the orchestrator state. */
export interface ConvergenceResult {
  schemaVersion: typeof CONVERGENCE_V1;
  status: ConvergenceStatus;
  fingerprint: IterationFingerprint;
  previousFingerprint?: string;
  repeated: boolean;
  shouldStop: boolean;
  stopReason?: ConvergenceStopReason;
}

export interface EvaluateConvergenceInput {
  readonly fingerprint: IterationFingerprint;
  readonly previousFingerprint?: { readonly value: string } | undefined;
  /** The raw Harness decision of this iteration (only its action and blocking flag matter). */
  readonly decision: { readonly action: string; readonly blocking: boolean };
  /** null when the executor's exit code is unknown, which counts as a failure. */
  readonly executorExitCode: number | null;
  /** 1-based iteration number. */
  readonly loopIndex: number;
  readonly maxLoops: number;
}

/** True for a decision action that ends the loop. */
export function isTerminalAction(action: string): boolean {
  return TERMINAL_ACTIONS.includes(action);
}

/**
 * Classifies one iteration the way OpenCode++ does, in its order: executor failure, terminal decision, repeated
 * blocking state (same fingerprint as the previous iteration), loop budget, else progressing. A single-loop run
 * that stops on its budget is max-loops-reached: with no previous iteration it can never be a repeated state.
 *
 * @example
 * ```ts
 * const c = evaluateConvergence({ fingerprint: fp2, previousFingerprint: fp1, decision: { action: 'repair',
 *   blocking: true }, executorExitCode: 0, loopIndex: 2, maxLoops: 4 });
 * c.status; // 'repeated-state' when fp2.value === fp1.value
 * c.stopReason; // 'repeated-state/no-progress'
 * ```
 */
export function evaluateConvergence(input: EvaluateConvergenceInput): ConvergenceResult {
  const previous = input.previousFingerprint?.value;
  const repeated = Boolean(previous && previous === input.fingerprint.value && input.decision.blocking);
  const base = {
    schemaVersion: CONVERGENCE_V1 as typeof CONVERGENCE_V1,
    fingerprint: input.fingerprint,
    ...(previous ? { previousFingerprint: previous } : {}),
    repeated,
  };
  if (input.executorExitCode !== 0)
    return { ...base, status: 'executor-failure', shouldStop: true, stopReason: 'executor-failure' };
  if (isTerminalAction(input.decision.action))
    return { ...base, status: 'terminal', shouldStop: true, stopReason: 'terminal-decision' };
  if (repeated)
    return { ...base, status: 'repeated-state', shouldStop: true, stopReason: 'repeated-state/no-progress' };
  if (input.loopIndex === input.maxLoops)
    return { ...base, status: 'max-loops-reached', shouldStop: true, stopReason: 'max-loops-reached' };
  return { ...base, status: 'progressing', shouldStop: false };
}

/** What a stored convergence record says, read leniently from a parsed document. */
export interface StoredConvergence {
  readonly status: unknown;
  readonly value: unknown;
  readonly previousFingerprint?: unknown;
  readonly repeated: unknown;
  readonly shouldStop: unknown;
  readonly stopReason?: unknown;
  /** The raw decision action (the fingerprint state's decisionAction). */
  readonly rawAction: unknown;
}

/** The facts a stored record can be checked against; undefined means "not known here". */
export interface ConvergenceContext {
  readonly executorExitCode?: number | null;
  /** The decision as persisted (after a repeated-state or budget override). */
  readonly decision?: { readonly action: unknown; readonly blocking: unknown };
}

/**
 * Recomputes, in the original's order, what the stored inputs of a convergence record produce, and returns
 * one line per disagreement (empty when the record is consistent). maxLoops is not persisted, so a record that
 * no earlier rule decides may be either progressing or max-loops-reached.
 */
export function convergenceProblems(c: StoredConvergence, ctx: ConvergenceContext): string[] {
  const out: string[] = [];
  const same = typeof c.previousFingerprint === 'string' && c.previousFingerprint === c.value;
  const override = ctx.decision && ctx.decision.action !== c.rawAction;
  // The raw blocking flag is only known when the decision was not replaced by the convergence override.
  const rawBlocking = override ? undefined : ctx.decision?.blocking;
  const expectRepeated = same
    ? rawBlocking === undefined
      ? c.repeated === true
      : rawBlocking === true
    : false;
  if (typeof c.repeated === 'boolean' && c.repeated !== expectRepeated)
    out.push(
      `repeated is ${c.repeated}, but the fingerprint ${same ? 'equals' : 'differs from'} the previous one${same ? ' and the decision is not blocking' : ''}`,
    );
  let forced: ConvergenceStatus | undefined;
  if (ctx.executorExitCode !== undefined && ctx.executorExitCode !== 0) forced = 'executor-failure';
  else if (ctx.executorExitCode === undefined && c.status === 'executor-failure') forced = 'executor-failure';
  else if (typeof c.rawAction === 'string' && isTerminalAction(c.rawAction)) forced = 'terminal';
  else if (expectRepeated) forced = 'repeated-state';
  const status = c.status as ConvergenceStatus;
  if (forced && status !== forced) out.push(`status is "${status}", but the stored inputs give "${forced}"`);
  if (!forced && status !== 'progressing' && status !== 'max-loops-reached')
    out.push(`status is "${status}", but the stored inputs give "progressing" or "max-loops-reached"`);
  const expectStop = status !== 'progressing';
  if (typeof c.shouldStop === 'boolean' && c.shouldStop !== expectStop)
    out.push(`shouldStop is ${c.shouldStop} for status "${status}"`);
  if (Object.hasOwn(STOP_REASON, status) && c.stopReason !== STOP_REASON[status])
    out.push(`stopReason is ${JSON.stringify(c.stopReason ?? null)} for status "${status}"`);
  return out;
}
