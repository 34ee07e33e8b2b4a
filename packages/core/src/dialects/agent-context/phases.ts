import { valueText } from '../../text/value-text.js';
import { isOrchestratorPhase, ORCHESTRATOR_PHASES, type OrchestratorPhase } from './constants.js';

/** `<iteration zero-padded to 3>:<phase>`, e.g. `001:plan`. */
export function phaseKey(iteration: number, phase: OrchestratorPhase): string {
  return `${valueText(iteration).padStart(3, '0')}:${phase}`;
}

/** A completed phase key read leniently: a key that is only badly written (`1:Plan`) still says what it means. */
export interface ParsedPhaseKey {
  readonly iteration: number;
  readonly phase: OrchestratorPhase;
  /** The canonical spelling of the key. */
  readonly key: string;
  /** Why the stored spelling is not canonical, when it is not. */
  readonly problem?: 'not-padded' | 'case';
}

/** Parses a completed phase key; undefined when it names no phase at all (or is not `<n>:<phase>`). */
export function parsePhaseKey(raw: string): ParsedPhaseKey | undefined {
  const m = /^([0-9]+):(.+)$/.exec(raw);
  if (!m) return undefined;
  const phase = m[2]!.toLowerCase();
  const iteration = Number(m[1]);
  if (!isOrchestratorPhase(phase) || !Number.isSafeInteger(iteration)) return undefined;
  const key = phaseKey(iteration, phase);
  if (m[2] !== phase) return { iteration, phase, key, problem: 'case' };
  if (m[1]!.length < 3 || key !== raw) return { iteration, phase, key, problem: 'not-padded' };
  return { iteration, phase, key };
}

/** The phases of one iteration in order (the first iteration also prepares the sandbox). */
export function iterationPhases(iteration: number): OrchestratorPhase[] {
  const body: OrchestratorPhase[] = ['execute', 'collect', 'evaluate', 'decide', 'persist'];
  return iteration === 1 ? ['plan', 'prepare-sandbox', ...body] : ['plan', ...body];
}

/**
 * Every phase key a run must have completed to stand at `phase` in `iteration`: the whole legal history, so
 * `decide` in iteration 2 needs 001:plan … 001:persist, 002:plan … 002:evaluate.
 */
export function keysBefore(phase: OrchestratorPhase, iteration: number): string[] {
  return [...expectedKeys(phase, iteration)];
}

/** The phases of `iteration` that come before `phase` (all of them, and finalize, for finalize and completed). */
function phasesBefore(phase: OrchestratorPhase, iteration: number): OrchestratorPhase[] {
  const all = iterationPhases(iteration);
  if (phase === 'finalize') return all;
  if (phase === 'completed') return [...all, 'finalize'];
  const at = all.indexOf(phase);
  return at === -1 ? all : all.slice(0, at);
}

/** `keysBefore`'s keys one at a time, in order: a caller may stop early (a document may say iteration 1e308). */
function* expectedKeys(phase: OrchestratorPhase, iteration: number): Generator<string> {
  for (let i = 1; i < iteration; i++) for (const p of iterationPhases(i)) yield phaseKey(i, p);
  for (const p of phasesBefore(phase, iteration)) yield phaseKey(iteration, p);
}

/** How many keys `keysBefore` holds, without making them. */
function expectedCount(phase: OrchestratorPhase, iteration: number): number {
  const whole = Math.ceil(iteration) - 1; // the loop's i = 1, 2, ... below iteration
  return (whole > 0 ? 7 + 6 * (whole - 1) : 0) + phasesBefore(phase, iteration).length;
}

/** Whether `keysBefore(phase, iteration)` holds the key of phase `p` in iteration `i`. */
function isExpected(i: number, p: OrchestratorPhase, phase: OrchestratorPhase, iteration: number): boolean {
  if (i >= 1 && i < iteration) return iterationPhases(i).includes(p);
  return i === iteration && phasesBefore(phase, iteration).includes(p);
}

/** The state fields a phase needs, set by the transitions before it (FORMATS.md section 4). */
export function requiredReferences(phase: OrchestratorPhase, iteration: number): string[] {
  switch (phase) {
    case 'collect':
    case 'evaluate':
      return ['executorResultReference'];
    case 'decide':
      return ['executorResultReference', 'evaluationReference'];
    case 'persist':
      return ['executorResultReference', 'evaluationReference', 'latestDecision', 'convergence'];
    case 'finalize':
      return ['latestDecision', 'convergence', 'iterationReference'];
    case 'completed':
      return ['latestDecision', 'convergence', 'completedAt'];
    case 'plan':
      return iteration > 1 ? ['latestDecision', 'convergence', 'iterationReference'] : [];
    default:
      return [];
  }
}

/** The orchestrator facts resume needs, read from a state document. */
export interface PhaseStateLike {
  readonly currentPhase: OrchestratorPhase;
  readonly currentIteration: number;
  readonly completedPhases: readonly string[];
  readonly convergence?: { readonly shouldStop?: boolean } | undefined;
}

/** Why completed phase keys do not support the current phase: keys it lacks, keys from after it. Empty if fine. */
export function phaseStateProblems(state: PhaseStateLike): string[] {
  const { currentPhase: phase, currentIteration: iteration } = state;
  const done = new Set<string>();
  const extra: string[] = [];
  let held = 0;
  for (const raw of state.completedPhases) {
    const k = parsePhaseKey(raw);
    if (!k || done.has(k.key)) continue;
    done.add(k.key);
    if (isExpected(k.iteration, k.phase, phase, iteration)) held++;
    else extra.push(k.key);
  }
  // The expected keys are counted, not listed: only the first few missing ones are named, so a state whose
  // iteration is huge (1e308 in a hand-edited file) costs what its completed keys cost.
  const missing: string[] = [];
  const missingCount = expectedCount(phase, iteration) - held;
  if (missingCount > 0)
    for (const k of expectedKeys(phase, iteration)) {
      if (done.has(k)) continue;
      missing.push(k);
      if (missing.length === SHOWN) break;
    }
  const out: string[] = [];
  if (missingCount > 0) out.push(`lacks ${listed(missing, missingCount)}`);
  if (extra.length > 0)
    out.push(
      `already holds ${listed(extra, extra.length)}, which come${extra.length === 1 ? 's' : ''} after it`,
    );
  return out;
}

/** How many keys a problem names before "and N more". */
const SHOWN = 4;

function listed(keys: readonly string[], count: number): string {
  const shown = keys.slice(0, SHOWN).map((k) => `"${k}"`);
  if (count <= SHOWN) return shown.join(', ');
  const more = count - SHOWN;
  return `${shown.join(', ')} and ${Number.isSafeInteger(more) ? more : 'countless'} more`;
}

/** Where a resumed run continues, and the completed phases it skips. */
export interface ResumePoint {
  /** The phase to run next; `completed` means nothing is left to run. */
  readonly phase: OrchestratorPhase;
  readonly iteration: number;
  /** `phaseKey(iteration, phase)` of the phase to run next. */
  readonly key: string;
  /** True when the run already reached `completed`. */
  readonly done: boolean;
  /** Completed phase keys (canonical spelling), in completion order: never run again. */
  readonly skip: readonly string[];
  /** Why the state is not trustworthy (empty when consistent); a resume should stop for a person when not empty. */
  readonly problems: readonly string[];
}

/**
 * The resume point of an orchestrator state: OpenCode++ starts at currentPhase and never runs a completed phase
 * again. When the key of currentPhase is itself already completed (an inconsistent state), the point moves on
 * to the first phase after it that is not completed, so a completed phase is still never re-run.
 *
 * @example
 * ```ts
 * const r = resumeFrom(state); // state: currentPhase 'evaluate', iteration 2
 * r.key;  // '002:evaluate'
 * r.skip; // ['001:plan', …, '002:collect']
 * ```
 */
export function resumeFrom(state: PhaseStateLike): ResumePoint {
  const skip: string[] = [];
  const done = new Set<string>();
  for (const raw of state.completedPhases) {
    const k = parsePhaseKey(raw);
    if (k && !done.has(k.key)) {
      done.add(k.key);
      skip.push(k.key);
    }
  }
  let phase = state.currentPhase;
  let iteration = state.currentIteration;
  for (let guard = 0; phase !== 'completed' && done.has(phaseKey(iteration, phase)) && guard < 64; guard++) {
    const next = successor(phase, iteration, state.convergence?.shouldStop === true);
    phase = next.phase;
    iteration = next.iteration;
  }
  return {
    phase,
    iteration,
    key: phaseKey(iteration, phase),
    done: phase === 'completed',
    skip,
    problems: phaseStateProblems(state),
  };
}

/** The phase after `phase`: persist goes to finalize when the loop must stop, else to plan of the next iteration. */
export function successor(
  phase: OrchestratorPhase,
  iteration: number,
  shouldStop: boolean,
): { phase: OrchestratorPhase; iteration: number } {
  if (phase === 'persist')
    return shouldStop ? { phase: 'finalize', iteration } : { phase: 'plan', iteration: iteration + 1 };
  if (phase === 'plan') return { phase: iteration === 1 ? 'prepare-sandbox' : 'execute', iteration };
  if (phase === 'finalize' || phase === 'completed') return { phase: 'completed', iteration };
  const i = ORCHESTRATOR_PHASES.indexOf(phase);
  return { phase: ORCHESTRATOR_PHASES[i + 1]!, iteration };
}
