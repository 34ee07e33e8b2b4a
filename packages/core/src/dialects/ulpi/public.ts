// Public API of the ulpi dialect, re-exported by @ckpt/core's index. Names carry the dialect (e.g. loadTeamRuns).
export { ulpiCodes } from './codes.js';
export { ulpiRefusal, ulpiUsage } from './errors.js';
export {
  applyUlpiTransition,
  diffUlpiDocs,
  hashUlpiDoc,
  replayUlpiEventLog,
  type UlpiEventLine,
  type UlpiReplay,
  type UlpiReplayError,
  type UlpiTransition,
} from './event-log.js';
export {
  eventLogPathFor as ulpiEventLogPathFor,
  initializeUlpiEventLog,
  rebuildUlpiSnapshot,
  recoverUlpiEventLog,
} from './event-log-io.js';
export { ulpiFinalizeDoneProblems, ulpiSummary } from './finalize.js';
export { ulpiStableId } from './items.js';
export { findUlpiRun, findUlpiRunsDir, loadUlpiRunFiles, type UlpiRunFile, ulpiRunId } from './load.js';
export { type UlpiLockOptions, withUlpiLock } from './lock.js';
export { assertUnitsReadable as assertUlpiUnitsReadable } from './malformed.js';
export { isoStamp as ulpiTimestamp, type UlpiDoc } from './model.js';
export { reconcileUlpiFromGit, type UlpiReconcileResult, ulpiTrailers } from './reconcile.js';
export {
  classifyUlpiLaunch,
  type UlpiLaunch,
  type UlpiResumeSet,
  ulpiResumeDescriptor,
  ulpiResumeSet,
  ulpiShellQuote,
} from './resume.js';
export { loadUlpiRuns, type UlpiRuns } from './runs.js';
export {
  intakeBindingProblems as ulpiIntakeBindingProblems,
  scopeCoverageProblems as ulpiScopeCoverageProblems,
} from './scope-coverage.js';
export {
  describeJson as describeUlpiJson,
  mutateUlpiDoc,
  readUlpiDoc,
  readUlpiValue,
  serializeUlpiDoc,
  ULPI_SCHEMA_VERSION,
  type UlpiWriteOptions,
  upgradeUlpiDoc,
} from './store.js';
export { ulpiRunView } from './view.js';
export { ulpiRunViews } from './view-runs.js';
export {
  addUlpiItems,
  initUlpiRun,
  recordUlpiValidation,
  resolveUlpiItemsInFile as resolveUlpiItems,
  setUlpiPhase,
  setUlpiUnit,
  type UlpiInitOptions,
} from './write.js';
export {
  FINAL_STATES as ULPI_FINAL_STATES,
  finalizeUlpiRun,
  gcUlpiRuns,
  migrateUlpiFile,
  type UlpiGcResult,
  type UlpiMigration,
} from './write-run.js';
