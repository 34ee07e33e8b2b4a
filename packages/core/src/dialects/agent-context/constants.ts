// The fixed vocabularies of OpenCode++ (FORMATS.md section 4), kept in one place so rules, writer and loaders agree.

/** The only orchestrator-state schemaVersion the original (and ckpt) interprets. */
export const ORCHESTRATOR_STATE_V1 = 'opencode-plusplus.orchestrator-state.v1';
/** schemaVersion of the fingerprint envelope that is hashed. */
export const FINGERPRINT_V1 = 'opencode-plusplus.iteration-fingerprint.v1';
/** schemaVersion of a convergence result. */
export const CONVERGENCE_V1 = 'opencode-plusplus.convergence.v1';

/** Orchestrator phases, in the order one iteration walks them. */
export const ORCHESTRATOR_PHASES = [
  'plan',
  'prepare-sandbox',
  'execute',
  'collect',
  'evaluate',
  'decide',
  'persist',
  'finalize',
  'completed',
] as const;
export type OrchestratorPhase = (typeof ORCHESTRATOR_PHASES)[number];

/** Runtime actions a task state may allow or name as next. */
export const RUNTIME_ACTIONS = [
  'build_context',
  'prepare_task_pack',
  'prepare_edit_boundary',
  'start_agent',
  'run_tests',
  'repair_contracts',
  'expand_context',
  'replan',
  'review',
  'blocked',
] as const;

/** Decision actions that end the loop (the original's isTerminalAction). */
export const TERMINAL_ACTIONS: readonly string[] = [
  'finalize',
  'block',
  'rollback',
  'human-review',
  'executor-failure',
  'no-progress',
  'max-loops-reached',
];

export type ConvergenceStatus =
  | 'progressing'
  | 'terminal'
  | 'repeated-state'
  | 'max-loops-reached'
  | 'executor-failure';
export type ConvergenceStopReason =
  | 'terminal-decision'
  | 'repeated-state/no-progress'
  | 'max-loops-reached'
  | 'executor-failure';

/** The stop reason each stopping status carries. */
export const STOP_REASON: Readonly<Record<ConvergenceStatus, ConvergenceStopReason | undefined>> = {
  progressing: undefined,
  terminal: 'terminal-decision',
  'repeated-state': 'repeated-state/no-progress',
  'max-loops-reached': 'max-loops-reached',
  'executor-failure': 'executor-failure',
};

export function isOrchestratorPhase(v: unknown): v is OrchestratorPhase {
  return typeof v === 'string' && (ORCHESTRATOR_PHASES as readonly string[]).includes(v);
}

/** Harness decision actions of the newest release (HarnessDecisionAction in src/harness/types.ts). */
export const HARNESS_ACTIONS: readonly string[] = [
  'finalize',
  'repair',
  'repack',
  'run-tests',
  'rollback',
  'block',
  'human-review',
  'executor-failure',
  'no-progress',
  'max-loops-reached',
];

/** Kinds an artifact reference of a decision may name (ArtifactRef.kind). */
export const ARTIFACT_KINDS: readonly string[] = [
  'context',
  'trace',
  'policy',
  'guard',
  'loop',
  'decision',
  'report',
  'diff',
  'checkpoint',
  'run',
  'other',
];

/** Sources of an arbitration candidate (HarnessDecisionCandidateSource). */
export const CANDIDATE_SOURCES: readonly string[] = [
  'executor',
  'policy',
  'guard-gate',
  'loop',
  'risk',
  'fallback',
];

export const CONVERGENCE_STATUSES: readonly string[] = Object.keys(STOP_REASON);
export const STOP_REASONS: readonly string[] = [
  'terminal-decision',
  'repeated-state/no-progress',
  'max-loops-reached',
  'executor-failure',
];

/** Runtime states of a task (RunState in src/outputs/runtime-state.ts). */
export const RUN_STATES: readonly string[] = [
  'EMPTY',
  'CONTEXT_READY',
  'TASK_PACK_READY',
  'EDIT_BOUNDARY_READY',
  'AGENT_STARTED',
  'EDITED',
  'VERIFYING',
  'REPAIRING',
  'READY_FOR_REVIEW',
  'BLOCKED',
];

/** What `lastActionFor` returns (typed as a plain string by the writer). */
export const LAST_ACTIONS: readonly string[] = [
  'preflight',
  'contract_check_failed',
  'agent_edit',
  'verification_passed',
  'loop_step',
];
