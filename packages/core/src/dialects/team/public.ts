// Public API of the team dialect, re-exported by @ckpt/core's index. Names carry the dialect (e.g. loadTeamRuns).
export { type TeamCode, teamCodes } from './codes.js';
export {
  charLength as teamCharLength,
  LIMITS as TEAM_LIMITS,
  pathProblem as teamPathProblem,
  SECRET_PATTERNS as TEAM_SECRET_PATTERNS,
  type SecretPattern as TeamSecretPattern,
  secretIn as teamSecretIn,
} from './guards.js';
export {
  discoverTeamRoots,
  hashProjectFile as hashTeamArtifact,
  loadTeamTree,
  type TeamCurrent,
  type TeamRunFiles,
  type TeamTree,
} from './load.js';
export {
  type TeamApproval,
  type TeamApprovalState,
  type TeamAttempt,
  type TeamAttemptStatus,
  type TeamGate,
  type TeamRunModel,
  type TeamTask,
  teamRunModel,
} from './model.js';
export {
  type Clock as TeamClock,
  parseEventFileName as parseTeamEventFileName,
  RUN_ID_RE as TEAM_RUN_ID_RE,
  systemClock as teamSystemClock,
} from './names.js';
export { TERMINAL_STATUSES as TEAM_TERMINAL_STATUSES, type TeamTerminalStatus } from './records.js';
export { type TeamResumePlan, type TeamResumeTask, teamResumePlan } from './resume.js';
export { loadTeamRunsAt, type TeamRuns, teamRunViews } from './runs.js';
export { loadTeamRuns, type TeamStatus, teamRunsDir, teamStatus } from './status.js';
export {
  approveTeamStage,
  finishTeamTask,
  retryTeamTask,
  startTeamRun,
  startTeamTask,
  type TeamWriteOptions,
  type TeamWriteResult,
} from './write.js';
