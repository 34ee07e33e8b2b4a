// Public API of the resumable dialect, re-exported by @ckpt/core's index. Names carry the dialect.
export {
  declaredArtifacts as resumableDeclaredArtifacts,
  missingArtifacts as resumableMissingArtifacts,
} from './artifacts.js';
export { resumableCodes } from './codes.js';
export {
  CONTRACT_ITEMS as RESUMABLE_CONTRACT_ITEMS,
  CONTRACT_SPELLINGS as RESUMABLE_CONTRACT_SPELLINGS,
  type Contract as ResumableContract,
  type ContractItem as ResumableContractItem,
  type ContractValue as ResumableContractValue,
  contractConflicts as resumableContractConflicts,
  contractOf as resumableContractOf,
} from './contract.js';
export { resumableDialect, runRootFindings as resumableRunRootFindings } from './index.js';
export {
  discoverRunRoots as discoverResumableRunRoots,
  loadRunRoot as loadResumableRunRoot,
  RUN_FILES as RESUMABLE_RUN_FILES,
  type RunRoot as ResumableRunRoot,
} from './load.js';
export {
  classifyLock as classifyResumableLock,
  type LockHolder as ResumableLockHolder,
  type LockProbe as ResumableLockProbe,
  type LockState as ResumableLockState,
  systemProbe as resumableSystemProbe,
} from './lock.js';
export {
  type Observation as ResumableObservation,
  type ResumableResume,
  type ResumeWindow as ResumableResumeWindow,
  resumeDecision as resumableResumeDecision,
  resumeWindow as resumableResumeWindow,
  STOP_CODES as RESUMABLE_STOP_CODES,
  WINDOW_TITLES as RESUMABLE_WINDOW_TITLES,
} from './resume.js';
export { checkRunRoot as checkResumableRunRoot } from './rules.js';
export {
  type LogLine as ResumableLogLine,
  parseRunLog as parseResumableRunLog,
  summaryMarker as resumableSummaryMarker,
} from './run-log.js';
export {
  type ResumableStatus,
  type RunSelection as ResumableRunSelection,
  resolveResumableRunRoot,
  resumableStatus,
} from './select.js';
export {
  CONTRACT_KEYS as RESUMABLE_CONTRACT_KEYS,
  FINALIZATION_FLAGS as RESUMABLE_FINALIZATION_FLAGS,
  PUSH_FLAGS as RESUMABLE_PUSH_FLAGS,
  stagesOf as resumableStagesOf,
} from './stages.js';
export {
  appendResumableLog,
  finalizeResumableRun,
  initResumableRun,
  markResumableStageDone,
  type ResumableInit,
  setResumableCheck,
} from './write.js';
export type { ResumableWriteOptions } from './write-common.js';
export {
  acquireResumableLock,
  type LockOptions as ResumableLockOptions,
  type LockOutcome as ResumableLockOutcome,
  releaseResumableLock,
  type UnlockOptions as ResumableUnlockOptions,
} from './write-lock.js';
