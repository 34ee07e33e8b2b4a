// Public API of the ulpi dialect, re-exported by @ckpt/core's index. Names carry the dialect (e.g. loadTeamRuns).
export {};
