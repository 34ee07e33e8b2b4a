export {
  type ResumeDocument,
  type RunDocument,
  type RunsDocument,
  resumeDocument,
  runDocument,
  runsDocument,
  type SummariesDocument,
  summariesDocument,
} from './documents.js';
export {
  compareRunsNewestFirst,
  discoverRoots,
  findRun,
  type LoadProjectOptions,
  loadProject,
  matchRun,
  type ProjectRoot,
  type RunMatch,
} from './load-project.js';
export {
  createProjectIndex,
  type IndexStats,
  type IndexUpdate,
  type ProjectIndex,
  type ProjectIndexOptions,
} from './project-index.js';
export * from './run-view.js';
export {
  describeProblems,
  type ProblemCounts,
  problemCounts,
  type RunSummary,
  statusTones,
  summarizeRun,
} from './summary.js';
