import { defineCodes } from '../../findings/code-table.js';

/** Finding codes of the agent-context dialect: the documentation of every rule, in one place. */
export const agentContextCodes = defineCodes({
  'agent-context/unsupported-schema-version': {
    severity: 'error',
    title: 'The orchestrator state has a schemaVersion ckpt and OpenCode++ do not interpret.',
    explanation:
      'An orchestrator state must say exactly "opencode-plusplus.orchestrator-state.v1". OpenCode++ refuses any other value (a newer version, a number, nothing) with an explicit compatibility error instead of guessing; ckpt does the same: the document is not interpreted, so its other fields are neither checked nor shown, and the run cannot be resumed by this version.',
  },
  'agent-context/task-id-mismatch': {
    severity: 'error',
    title: 'A task state names another task than its directory.',
    explanation:
      'OpenCode++ finds a task state by its directory, `.agent-context/runs/<task-id>/state.json`, and writes the same id into taskId. A different taskId means the file was copied or hand-edited; the runtime would act on the wrong task.',
  },
  'agent-context/run-id-mismatch': {
    severity: 'error',
    title: 'A run document names another run, or another iteration, than its directory.',
    explanation:
      "The orchestrator state lives in `orchestrator/<run-id>/`, iterations in `runs/<run-id>/iterations/<NNN>/`. Their runId (and an iteration record's iteration number) must match those directories, or a resume reads another run's artifacts.",
  },
  'agent-context/inconsistent-phase-state': {
    severity: 'error',
    title: 'The completed phase keys do not support the current phase.',
    explanation:
      'Every phase transition appends `<NNN>:<phase>` to completedPhases and moves currentPhase in one atomic write, so a state at `decide` of iteration 2 has completed every phase before it (001:plan … 002:evaluate) and none after it. A state that lacks one, or already holds a later one, was not written by a transition; a resume must not trust it.',
  },
  'agent-context/missing-phase-reference': {
    severity: 'error',
    title: 'The state lacks a reference that its current phase needs.',
    explanation:
      'Transitions set references the next phases read: execute sets executorResultReference, evaluate sets evaluationReference, decide sets latestDecision and convergence, persist sets iterationReference, finalize sets completedAt. A state at a later phase without them cannot be resumed: the phase would have nothing to work on.',
  },
  'agent-context/bad-phase-key': {
    severity: 'error',
    title: 'A completed phase key is not `<iteration zero-padded to 3>:<phase>`.',
    explanation:
      'OpenCode++ writes keys such as `001:plan` and looks them up by exact string. A key that is not zero-padded (`1:plan`) or names no phase is never matched, so the phase it means would run again on resume.',
  },
  'agent-context/phase-case': {
    severity: 'error',
    title: 'A phase is written in another case.',
    explanation:
      'Phases are lowercase kebab-case (`prepare-sandbox`, `decide`). OpenCode++ compares them exactly, so `Decide` is not `decide`: as currentPhase it is unknown, as a completed key it would never be matched.',
  },
  'agent-context/unknown-action': {
    severity: 'error',
    title: 'A task state names a next action outside the runtime action set.',
    explanation:
      'nextAction.type is what resuming the task runs next: one of build_context, prepare_task_pack, prepare_edit_boundary, start_agent, run_tests, repair_contracts, expand_context, replan, review, blocked. Anything else is an action no agent, user or CI step knows how to execute, so ckpt cannot say what a resume does. (allowedActions only describes the state: an unknown entry there is agent-context/unknown-value.)',
  },
  'agent-context/unknown-value': {
    severity: 'warning',
    title: 'A descriptive field holds a value outside the vocabulary ckpt knows.',
    explanation:
      'Some fields only describe what happened and are never read back to decide where a run resumes: the task state, previous state, last action and allowed actions of a task; the decision action, artifact kinds and candidate sources of a decision; the convergence status and stop reason. OpenCode++ releases add values to these lists (a new action, a new state), so a value ckpt does not know is valid, not an error: ckpt shows it as written and skips the checks that depend on it (the convergence of an unknown decision action is not judged). Fields a resume needs stay strict: currentPhase, completedPhases, nextAction.type and the orchestrator schemaVersion.',
  },
  'agent-context/revision-behind': {
    severity: 'error',
    title: 'The revision went backwards between a state and what it records.',
    explanation:
      'Every save adds 1 to revision and every phase transition is a save, so an orchestrator state has at least as many revisions as completed phase keys, and persisting iteration N needs at least 6×N of them. A lower revision means an older file was restored over a newer one, or a copy from another run; the artifacts on disk are ahead of the state.',
  },
  'agent-context/fingerprint-mismatch': {
    severity: 'error',
    title: 'A stored fingerprint value is not the hash of its stored state.',
    explanation:
      'The value is the sha256 of the stable stringify of {schemaVersion, state} (keys and arrays sorted with localeCompare), the state exactly as stored: releases that fingerprint a task and session hash taskId and sessionId, the first releases hash a state without them. A different value means the state or the value was edited after hashing; repeated-state detection compares values, so it can no longer be trusted. `ckpt agent-context fingerprint` prints the value of a state.',
  },
  'agent-context/fingerprint-not-normalized': {
    severity: 'error',
    title: 'A persisted fingerprint state is not normalized.',
    explanation:
      'OpenCode++ persists the normalized state: the four arrays without empty values or duplicates, sorted with String.prototype.localeCompare (not code-point order). A state that is not normalized was not written by the original and may hash differently from the same logical state.',
  },
  'agent-context/convergence-mismatch': {
    severity: 'error',
    title: 'A convergence status is not what its stored inputs produce.',
    explanation:
      'Convergence is decided in this order: executor exit code not 0 → executor-failure; terminal decision action → terminal; same fingerprint as the previous iteration with a blocking decision → repeated-state; loop budget reached → max-loops-reached; else progressing. ckpt recomputes it from the stored exit code, raw decision action, fingerprints and flags (maxLoops is not stored, so the last two are both accepted); shouldStop and stopReason must match the status.',
  },
  'agent-context/broken-fingerprint-chain': {
    severity: 'error',
    title: "An iteration's previousFingerprint is not the fingerprint of the iteration before it.",
    explanation:
      'Repeated-state detection compares each iteration with the previous one. A previousFingerprint that differs from the stored fingerprint of iteration N-1, both on disk, means the iterations were edited, reordered or mixed from two runs. A previousFingerprint on iteration 1 is not judged here (see agent-context/rerun-fingerprint), nor one whose iteration N-1 is missing.',
  },
  'agent-context/rerun-fingerprint': {
    severity: 'info',
    title: 'Iteration 1 carries the last fingerprint of an earlier run of the same task.',
    explanation:
      "OpenCode++ starts a new orchestrator state at iteration 1 but takes the previous fingerprint from the last iteration report already in `runs/<run-id>/iterations/`. When a user deletes `.agent-context/orchestrator/<run-id>/` and runs the same task again, iteration 1 is therefore compared with the earlier run's last iteration: it carries a previousFingerprint, and can even stop at once as repeated-state. The file is as OpenCode++ writes it; the note says that the iterations on disk span two runs, and that iterations above the new run's last one are the earlier run's.",
  },
  'agent-context/stale-temp-file': {
    severity: 'info',
    title: 'A temp file from an interrupted write lies beside a state.',
    explanation:
      'OpenCode++ and ckpt write `<file>.tmp-…` or `.<file>.ckpt-tmp-…` and rename it over the state. A crash leaves the temp file; the state itself is the old or the new one, never half. Loaders ignore temp files; delete them when no writer runs.',
  },
});

export type AgentContextCode = keyof typeof agentContextCodes;
