// Public API of the team dialect, re-exported by @ckpt/core's index. Names carry the dialect (e.g. loadTeamRuns).
export {};
