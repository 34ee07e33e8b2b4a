import { dirname, join } from 'node:path';
import { CkptError } from '../../errors.js';
import { atomicReplace } from '../../fs/atomic.js';
import { type FileSystem, nodeFileSystem } from '../../fs/file-system.js';
import { valueText } from '../../text/value-text.js';
import { ORCHESTRATOR_STATE_V1, type OrchestratorPhase } from './constants.js';
import type { ConvergenceResult } from './convergence.js';
import { phaseKey, successor } from './phases.js';

/** An orchestrator state as OpenCode++ writes it (`.agent-context/orchestrator/<run-id>/state.json`). */
export interface OrchestratorState {
  schemaVersion: typeof ORCHESTRATOR_STATE_V1;
  revision?: number;
  runId: string;
  task: string;
  repo: string;
  currentPhase: OrchestratorPhase;
  currentIteration: number;
  completedPhases: string[];
  executorResultReference?: string | undefined;
  traceReference: string;
  contextFingerprint: string;
  workingTreeHash: string;
  latestDecision?: { action: string; blocking: boolean; [k: string]: unknown } | undefined;
  convergence?: ConvergenceResult | undefined;
  evaluationReference?: string | undefined;
  iterationReference?: string | undefined;
  createdAt: string;
  updatedAt: string;
  completedAt?: string | undefined;
}

/** Fields a transition may set besides the phase bookkeeping. */
export type OrchestratorUpdates = Partial<
  Omit<
    OrchestratorState,
    'schemaVersion' | 'runId' | 'createdAt' | 'currentPhase' | 'completedPhases' | 'revision'
  >
>;

/** Path of a run's orchestrator state under a project root. */
export function orchestratorStatePath(projectDir: string, runId: string): string {
  return join(projectDir, '.agent-context', 'orchestrator', runId, 'state.json');
}

/**
 * A new run's state, not yet saved (revision 0, at `plan` of iteration 1), as the original's repository creates
 * it. The first save (after plan) makes it revision 1.
 */
export function createOrchestratorState(input: {
  runId: string;
  task: string;
  repo: string;
  contextFingerprint: string;
  workingTreeHash: string;
  traceReference?: string;
  now?: string;
}): OrchestratorState {
  const now = input.now ?? new Date().toISOString();
  return {
    schemaVersion: ORCHESTRATOR_STATE_V1,
    revision: 0,
    runId: input.runId,
    task: input.task,
    repo: input.repo,
    currentPhase: 'plan',
    currentIteration: 1,
    completedPhases: [],
    traceReference: input.traceReference ?? `.agent-context/traces/${input.runId}.json`,
    contextFingerprint: input.contextFingerprint,
    workingTreeHash: input.workingTreeHash,
    createdAt: now,
    updatedAt: now,
  };
}

const refuse = (msg: string): never => {
  throw new CkptError('REFUSED', msg);
};

/**
 * Completes the current phase and moves to the next, with the transition rules of FORMATS.md: execute→collect
 * needs executorResultReference, evaluate→decide evaluationReference, decide→persist latestDecision and
 * convergence; persist goes to finalize when convergence says stop, else to plan of the next iteration (clearing
 * the executor and evaluation references); plan→execute on iteration 2+ clears iterationReference;
 * finalize→completed sets completedAt. Pure: returns the new state; an illegal step throws REFUSED.
 */
export function advanceOrchestratorState(
  state: OrchestratorState,
  updates: OrchestratorUpdates = {},
  now: string = new Date().toISOString(),
): OrchestratorState {
  const from = state.currentPhase;
  if (from === 'completed') refuse(`run ${state.runId} is completed; there is no phase to advance`);
  const merged = { ...state, ...updates };
  const stop = merged.convergence?.shouldStop === true;
  const { phase: next } = successor(from, state.currentIteration, stop);
  const need = (field: keyof OrchestratorState, why: string) => {
    if (merged[field] === undefined)
      refuse(`cannot complete ${from} of run ${state.runId}: ${why} needs ${field}`);
  };
  const extra: Partial<OrchestratorState> = {};
  if (from === 'execute') need('executorResultReference', 'execute → collect');
  if (from === 'evaluate') need('evaluationReference', 'evaluate → decide');
  if (from === 'decide') {
    need('latestDecision', 'decide → persist');
    need('convergence', 'decide → persist');
  }
  if (from === 'persist' && !stop) {
    Object.assign(extra, {
      currentIteration: state.currentIteration + 1,
      executorResultReference: undefined,
      evaluationReference: undefined,
    });
  }
  if (from === 'plan' && state.currentIteration > 1) extra.iterationReference = undefined;
  if (from === 'finalize') extra.completedAt = updates.completedAt ?? now;
  const key = phaseKey(state.currentIteration, from);
  return {
    ...merged,
    ...extra,
    currentPhase: next,
    completedPhases: state.completedPhases.includes(key)
      ? state.completedPhases
      : [...state.completedPhases, key],
  };
}

/**
 * Saves a state atomically (temp file, fsync, rename, directory fsync) with revision + 1 and a fresh updatedAt,
 * like the original's writeJsonAtomicWithRevision: the file on disk must still hold the revision the state was
 * read with, otherwise the save is refused (another writer got there first). Returns what was written.
 */
export function saveOrchestratorState(
  projectDir: string,
  state: OrchestratorState,
  opts: { fs?: FileSystem; now?: string } = {},
): OrchestratorState {
  const fs = opts.fs ?? nodeFileSystem;
  const path = orchestratorStatePath(projectDir, state.runId);
  let actual = 0;
  if (fs.existsSync(path)) {
    let current: { revision?: unknown };
    try {
      current = JSON.parse(new TextDecoder().decode(fs.readFileSync(path)));
    } catch (e) {
      throw new CkptError('REFUSED', `cannot update the corrupt orchestrator state ${path}`, { cause: e });
    }
    actual = typeof current?.revision === 'number' ? current.revision : 0;
  }
  const expected = state.revision ?? 0;
  if (expected !== actual)
    refuse(
      `revision conflict for run ${state.runId}: expected ${expected} on disk, found ${actual}; reload and retry`,
    );
  const next = { ...state, updatedAt: opts.now ?? new Date().toISOString(), revision: actual + 1 };
  fs.mkdirSync(dirname(path), { recursive: true });
  atomicReplace(path, `${JSON.stringify(next, null, 2)}\n`, { fs });
  return next;
}

/**
 * Reads a run's orchestrator state like the original: null when absent; a corrupt file or a schemaVersion other
 * than v1 is refused with an explicit message naming the run and the expected value (never interpreted).
 */
export function loadOrchestratorState(
  projectDir: string,
  runId: string,
  opts: { fs?: FileSystem } = {},
): OrchestratorState | null {
  const fs = opts.fs ?? nodeFileSystem;
  const path = orchestratorStatePath(projectDir, runId);
  if (!fs.existsSync(path)) return null;
  let parsed: Partial<OrchestratorState>;
  try {
    parsed = JSON.parse(new TextDecoder().decode(fs.readFileSync(path)));
  } catch (e) {
    throw new CkptError(
      'UNREADABLE',
      `orchestrator state of run ${runId} is corrupt: ${(e as Error).message}`,
      { cause: e },
    );
  }
  if (parsed?.schemaVersion !== ORCHESTRATOR_STATE_V1)
    refuse(
      `Unsupported orchestrator state schemaVersion "${valueText(parsed?.schemaVersion)}" for run ${runId}; expected ${ORCHESTRATOR_STATE_V1}.`,
    );
  return parsed as OrchestratorState;
}
