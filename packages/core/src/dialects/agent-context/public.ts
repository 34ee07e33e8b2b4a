// Public API of the agent-context dialect, re-exported by @ckpt/core's index. Names carry the dialect (e.g. loadTeamRuns).
export {};
