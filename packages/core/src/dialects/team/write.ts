import { join } from 'node:path';
import { CkptError } from '../../errors.js';
import { atomicReplace, fsyncDir, writeOnce } from '../../fs/atomic.js';
import type { FileSystem } from '../../fs/file-system.js';
import { hashProjectFile } from './load.js';
import { approvalFileName, type Clock, compactTime, eventFileName, isoSeconds, newRunId } from './names.js';
import { isTerminalStatus, type TeamEventRecord, type TeamTerminalStatus } from './records.js';
import { publishTerminal } from './write-claim.js';
import {
  type Ctx,
  checkName,
  checkPath,
  checkText,
  ctxOf,
  ensureDir,
  json,
  loadRun,
  publish,
  refuse,
} from './write-common.js';

/** Options every team writer takes. */
export interface TeamWriteOptions {
  /** The project root, the directory holding (or to hold) `.team/`; default the current directory. */
  readonly projectDir?: string;
  /** The file-system layer (tests inject faults through it). */
  readonly fs?: FileSystem;
  readonly clock?: Clock;
  /** OpenCode session ids recorded in run.json and events; null when not given. */
  readonly session?: string | null;
  readonly parentSession?: string | null;
}

/** What a writer wrote. */
export interface TeamWriteResult {
  readonly runId: string;
  /** Absolute path of the file written. */
  readonly path: string;
  readonly attempt?: number;
  readonly sha256?: string;
}

/** `start-run --profile --stage`: creates the run directory and run.json once, then points `current` at it. */
export function startTeamRun(opts: TeamWriteOptions & { profile: string; stage: string }): TeamWriteResult {
  const c = ctxOf(opts);
  checkName('profile', opts.profile, false);
  checkName('stage', opts.stage, true);
  ensureDir(c, c.runsDir);
  for (let i = 0; i < 8; i++) {
    const runId = newRunId(c.clock);
    const dir = join(c.runsDir, runId);
    try {
      c.fs.mkdirSync(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw e;
    }
    fsyncDir(c.fs, c.runsDir);
    const run = {
      run_id: runId,
      created_at: isoSeconds(c.clock.now()),
      profile: opts.profile,
      stage: opts.stage,
      status: 'running',
      session: opts.session ?? null,
      parent_session: opts.parentSession ?? null,
    };
    const path = join(dir, 'run.json');
    let created: boolean;
    try {
      created = writeOnce(path, json(run), { fs: c.fs });
    } catch (e) {
      // A run directory without its run.json is not a run: do not leave one behind (no space, read-only...).
      try {
        c.fs.rmdirSync(dir);
      } catch {}
      throw e;
    }
    if (!created) refuse(`run.json of ${runId} already exists`);
    atomicReplace(join(c.runsDir, 'current'), `${runId}\n`, { fs: c.fs });
    return { runId, path };
  }
  throw new CkptError('IO', 'could not create a unique run directory');
}

function writeEvent(
  c: Ctx,
  runId: string,
  e: Omit<TeamEventRecord, 'doc' | 'name' | 'at' | 'runId'>,
  terminal = false,
): TeamWriteResult {
  const now = c.clock.now();
  const time = compactTime(now, c.clock.micros());
  const body = {
    event: e.event,
    at: isoSeconds(now),
    run_id: runId,
    task_id: e.taskId,
    stage: e.stage,
    agent: e.agent,
    attempt: e.attempt,
    status: e.status,
    session: e.session,
    parent_session: e.parentSession,
    inputs: e.inputs,
    artifacts: e.artifacts,
    evidence: e.evidence,
    next: e.next,
    ...(e.retryOf !== undefined ? { retry_of: e.retryOf, reason: e.reason ?? '' } : {}),
  };
  const dir = join(c.runsDir, runId, 'events');
  const name = () => eventFileName(time, e.event, e.taskId, e.attempt);
  // A terminal event goes through the attempt's claim, so two finishers never both publish one.
  const path = terminal
    ? publishTerminal(c, join(c.runsDir, runId), {
        task: e.taskId,
        attempt: e.attempt,
        status: e.status,
        eventPath: join(dir, name()),
        body,
      })
    : publish(c, dir, name, json(body));
  return { runId, path, attempt: e.attempt };
}

/** `start-task --run --task --stage --agent --input...`: writes attempt 1's `task_started` before dispatch. */
export function startTeamTask(
  opts: TeamWriteOptions & {
    run: string;
    task: string;
    stage: string;
    agent: string;
    inputs?: readonly string[];
  },
): TeamWriteResult {
  const c = ctxOf(opts);
  checkName('task', opts.task, true);
  checkName('stage', opts.stage, true);
  checkName('agent', opts.agent, false);
  const inputs = (opts.inputs ?? []).map((p) => checkPath('input', p));
  const model = loadRun(c, opts.run);
  const task = model.tasks.find((t) => t.id === opts.task);
  if (task) {
    const l = task.latest;
    if (l.status === 'running (uncertain)')
      refuse(
        `task "${opts.task}" attempt ${l.attempt} is already running; reconcile it before doing anything else`,
      );
    if (l.status === 'failed' || l.status === 'interrupted')
      refuse(
        `task "${opts.task}" attempt ${l.attempt} ${l.status}; use \`ckpt team retry\` to start the next attempt`,
      );
    refuse(
      `task "${opts.task}" attempt ${l.attempt} is ${l.status}; a task is started once (completed tasks are not rerun)`,
    );
  }
  return writeEvent(c, opts.run, {
    event: 'task_started',
    taskId: opts.task,
    stage: opts.stage,
    agent: opts.agent,
    attempt: 1,
    status: 'running',
    session: opts.session ?? null,
    parentSession: opts.parentSession ?? null,
    inputs,
    artifacts: [],
    evidence: '',
    next: '',
  });
}

/** `finish-task --run --task --status --artifact... --evidence --next`: the terminal event of the latest attempt. */
export function finishTeamTask(
  opts: TeamWriteOptions & {
    run: string;
    task: string;
    status: TeamTerminalStatus | string;
    artifacts?: readonly string[];
    evidence?: string;
    next?: string;
  },
): TeamWriteResult {
  const c = ctxOf(opts);
  if (!isTerminalStatus(opts.status))
    refuse(
      `status "${opts.status}" is not terminal; use completed, failed, interrupted or awaiting_approval`,
    );
  const artifacts = (opts.artifacts ?? []).map((p) => checkPath('artifact', p));
  checkText('evidence', opts.evidence ?? '');
  checkText('next', opts.next ?? '');
  const model = loadRun(c, opts.run);
  const task = model.tasks.find((t) => t.id === opts.task);
  if (!task)
    refuse(
      `task "${opts.task}" was never started in run ${opts.run}; start it with \`ckpt team start-task\``,
    );
  const l = task!.latest;
  const start = l.started[0];
  if (!start) refuse(`task "${opts.task}" attempt ${l.attempt} was never started`);
  if (l.terminals.length > 0)
    refuse(
      `task "${opts.task}" attempt ${l.attempt} already has a terminal event (${l.status}); events are never rewritten`,
    );
  return writeEvent(
    c,
    opts.run,
    {
      event: 'task_finished',
      taskId: task!.id,
      stage: start!.stage,
      agent: start!.agent,
      attempt: l.attempt,
      status: opts.status,
      session: opts.session ?? start!.session,
      parentSession: opts.parentSession ?? start!.parentSession,
      inputs: start!.inputs,
      artifacts,
      evidence: opts.evidence ?? '',
      next: opts.next ?? '',
    },
    true,
  );
}

/** `retry --run --task --reason`: starts the next attempt of a task whose latest attempt failed or was interrupted. */
export function retryTeamTask(
  opts: TeamWriteOptions & { run: string; task: string; reason: string },
): TeamWriteResult {
  const c = ctxOf(opts);
  checkText('reason', opts.reason);
  const model = loadRun(c, opts.run);
  const task = model.tasks.find((t) => t.id === opts.task);
  if (!task) refuse(`task "${opts.task}" was never started in run ${opts.run}`);
  const l = task!.latest;
  if (l.status !== 'failed' && l.status !== 'interrupted')
    refuse(
      `task "${opts.task}" attempt ${l.attempt} is ${l.status}; only a failed or interrupted attempt can be retried`,
    );
  const prev = l.started[0] ?? l.terminals[0]!;
  return writeEvent(c, opts.run, {
    event: 'task_started',
    taskId: task!.id,
    stage: prev.stage,
    agent: prev.agent,
    attempt: l.attempt + 1,
    status: 'running',
    session: opts.session ?? prev.session,
    parentSession: opts.parentSession ?? prev.parentSession,
    inputs: prev.inputs,
    artifacts: [],
    evidence: '',
    next: '',
    retryOf: l.attempt,
    reason: opts.reason,
  });
}

/** `approve --run --stage --artifact --by [--note]`: records that a person approved the artifact's bytes now. */
export function approveTeamStage(
  opts: TeamWriteOptions & { run: string; stage: string; artifact: string; by: string; note?: string },
): TeamWriteResult {
  const c = ctxOf(opts);
  checkName('stage', opts.stage, true);
  checkName('by', opts.by, false);
  if (opts.note !== undefined) checkText('note', opts.note);
  const artifact = checkPath('artifact', opts.artifact);
  loadRun(c, opts.run);
  const sha256 = hashProjectFile(c.projectDir, artifact);
  if (!sha256) refuse(`artifact "${artifact}" is not a readable file inside the project`);
  const now = c.clock.now();
  const time = compactTime(now, c.clock.micros());
  const body = {
    stage: opts.stage,
    artifact,
    sha256,
    by: opts.by,
    approved_at: isoSeconds(now),
    ...(opts.note !== undefined ? { note: opts.note } : {}),
  };
  const dir = join(c.runsDir, opts.run, 'approvals');
  const path = publish(c, dir, () => approvalFileName(time, opts.stage), json(body));
  return { runId: opts.run, path, sha256: sha256! };
}
