// @ckpt/core: everything that understands the checkpoint formats. No CLI or HTTP code lives here.

export * from './attention/public.js';
export { type CheckOptions, checkDocument } from './check/check-document.js';
export { type Collected, collectFiles, type FileRef, type UnitRef } from './check/collect-files.js';
export {
  createTreeContext,
  type FileResult,
  VALIDATION_FORMAT_VERSION,
  type ValidateOptions,
  type ValidationReport,
  type ValidationStream,
  type ValidationSummary,
  validateCollected,
  validatePaths,
} from './check/validate-files.js';
export { entriesOfDialect, entryKinds, loadCatalog, matchCatalog, schemaFor } from './detect/catalog.js';
export { globToRegExp } from './detect/glob.js';
export * from './dialects/agent-context/public.js';
export type { CheckedDocument, Dialect, DialectId, TreeContext, UnitFacts } from './dialects/dialect.js';
export { dialectIds, dialects, getDialect, isDialectId } from './dialects/registry.js';
export * from './dialects/resumable/public.js';
export * from './dialects/team/public.js';
export * from './dialects/ulpi/public.js';
export {
  type DialectRuns,
  type DoctorProblem,
  type DoctorReport,
  nodeOk,
  scanProject,
} from './doctor/scan-project.js';
export {
  asWriteError,
  CkptError,
  type ErrorCode,
  errorCodes,
  WRITE_FAILURE_WHY,
  WriteError,
  writeErrorOf,
} from './errors.js';
export { type CodeInfo, type CodeTable, defineCodes } from './findings/code-table.js';
export { allCodes, codeInfo } from './findings/codes.js';
export {
  compareFindings,
  type Finding,
  findingAt,
  type Location,
  type Severity,
  severityRank,
} from './findings/finding.js';
export { genericCodes } from './findings/generic-codes.js';
export {
  appendDurable,
  atomicReplace,
  fsyncDir,
  isTempName,
  TEMP_MARK,
  tempPathFor,
  writeOnce,
  writeTemp,
} from './fs/atomic.js';
export { type FileSystem, nodeFileSystem } from './fs/file-system.js';
export { type LockDirOptions, withLockDir } from './fs/lock-dir.js';
export {
  entryExists,
  type ReadOptions,
  ReadRefusedError,
  readRegularFile,
  readRegularFileUtf8,
} from './fs/read-checkpoint.js';
export { type ReadFailure, readFailure } from './fs/read-failure.js';
export { DEFAULT_MAX_FILE_SIZE, maxFileSize, parseByteSize, setMaxFileSize } from './fs/read-limits.js';
export { decodeUtf8 } from './parse/decode.js';
export { type EnvEntry, type ParsedEnv, parseEnv, quoteEnvValue, serializeEnv } from './parse/env.js';
export { JsonSourceMap, type ParsedJson, parseJson } from './parse/json.js';
export { escapePointerToken, MAX_DEPTH, scanJson } from './parse/json-scanner.js';
export { type JsonlLine, type ParsedJsonl, parseJsonl } from './parse/jsonl.js';
export { LineIndex } from './parse/line-index.js';
export type { SourceMap } from './parse/source-map.js';
export { type PoolOptions, warmPool } from './pool/pool.js';
export * from './text/public.js';
export * from './view/graph/public.js';
export * from './view/history/public.js';
export * from './view/public.js';
