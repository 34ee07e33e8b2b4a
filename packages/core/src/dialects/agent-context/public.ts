// Public API of the agent-context dialect, re-exported by @ckpt/core's index. Generic names carry the dialect.
export { type AgentContextCode, agentContextCodes } from './codes.js';
export {
  CONVERGENCE_V1,
  type ConvergenceStatus,
  type ConvergenceStopReason,
  FINGERPRINT_V1,
  ORCHESTRATOR_PHASES,
  ORCHESTRATOR_STATE_V1,
  type OrchestratorPhase,
  RUNTIME_ACTIONS,
  TERMINAL_ACTIONS,
} from './constants.js';
export {
  type ConvergenceResult,
  type EvaluateConvergenceInput,
  evaluateConvergence,
  isTerminalAction,
} from './convergence.js';
export {
  type FingerprintInput,
  type FingerprintState,
  fingerprint,
  hashFingerprintState,
  type IterationFingerprint,
  normalizeFingerprintList,
  normalizeFingerprintState,
  stableStringify,
} from './fingerprint.js';
export { type FingerprintVerdict, judgeFingerprint } from './fingerprint-rules.js';
export {
  type AgentContextIterationFiles,
  type AgentContextTree,
  discoverAgentContextRoots,
  loadAgentContextTree,
} from './load.js';
export {
  type AgentContextIterationSummary,
  type AgentContextRunSummary,
  type AgentContextTaskSummary,
  latestIteration,
} from './model.js';
export {
  keysBefore,
  parsePhaseKey,
  phaseKey,
  phaseStateProblems,
  type ResumePoint,
  resumeFrom,
} from './phases.js';
export { taskSlug } from './slug.js';
export {
  AGENT_CONTEXT_REPORT_VERSION,
  type AgentContextStatus,
  type AgentContextVerifyEntry,
  type AgentContextVerifyReport,
  agentContextStatus,
  verifyAgentContext,
} from './status.js';
export {
  advanceOrchestratorState,
  createOrchestratorState,
  loadOrchestratorState,
  type OrchestratorState,
  type OrchestratorUpdates,
  orchestratorStatePath,
  saveOrchestratorState,
} from './write.js';
