import { join } from 'node:path';
import { CkptError } from '../../errors.js';
import { secretRefusal } from '../../text/secrets.js';
import { missingArtifacts } from './artifacts.js';
import { contractConflicts } from './contract.js';
import { type EnvFile, readEnvFile, replaceEnvFile } from './env-file.js';
import { RUN_FILES } from './load.js';
import { parseRunLog, summaryLines, summaryMarker } from './run-log.js';
import {
  checklistComplete,
  checklistDoneFlag,
  checksOf,
  compareStages,
  FINALIZATION_FLAGS,
  isStageName,
  isTerminalStage,
  pushProgress,
  stageComplete,
  stageDone,
  stagesOf,
} from './stages.js';
import {
  appendLogLine,
  assertMayWrite,
  type Ctx,
  ctxOf,
  type ResumableWriteOptions,
  underMutex,
} from './write-common.js';

export { initResumableRun, type ResumableInit } from './write-init.js';

interface Loaded {
  readonly state: EnvFile;
  readonly checklist: EnvFile;
  readonly stages: string[];
}

function load(c: Ctx, root: string): Loaded {
  const state = readEnvFile(c.fs, join(root, RUN_FILES.state), 'state.env');
  const checklist = readEnvFile(c.fs, join(root, RUN_FILES.checklist), 'checklist.state.env');
  return { state, checklist, stages: stagesOf(state.values, checklist.values) };
}

function listArtifacts(c: Ctx, dir: string, prefix = ''): string[] {
  let names: string[];
  try {
    names = c.fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const p = join(dir, n);
    const rel = prefix ? `${prefix}/${n}` : n;
    return c.fs.statSync(p).isDirectory() ? listArtifacts(c, p, rel) : [rel];
  });
}

/**
 * Refuses on contract drift (a stop condition): two spellings of a contract item in state.env that disagree, or a
 * value that differs from the one recorded at bootstrap.
 */
function assertNoDrift(c: Ctx, root: string, state: EnvFile): void {
  const path = join(root, RUN_FILES.contract);
  const recorded = c.fs.existsSync(path)
    ? readEnvFile(c.fs, path, 'artifacts/contract.env').values
    : undefined;
  const drift = contractConflicts(state.values, recorded).map((d) => d.key);
  if (drift.length > 0)
    throw new CkptError(
      'REFUSED',
      `immutable contract drift in ${[...new Set(drift)].join(', ')}: stop and start a new run`,
    );
}

function assertStage(l: Loaded, stage: string): void {
  if (!isStageName(stage)) throw new CkptError('USAGE', `"${stage}" is not a stage name (S<n> or M<n>)`);
  if (l.state.values[`${stage}_DONE`] === undefined)
    throw new CkptError('REFUSED', `${stage} is not a stage of this run (no ${stage}_DONE in state.env)`);
}

/** `ckpt resumable check`: sets CB_<STAGE>_<ITEM> to 0 or 1. Refused for a stage already done (set to 0). */
export function setResumableCheck(
  root: string,
  stage: string,
  item: string,
  value: '0' | '1',
  opts: ResumableWriteOptions = {},
): 'changed' | 'unchanged' {
  const c = ctxOf(opts);
  if (!/^[A-Z0-9_]+$/.test(item)) throw new CkptError('USAGE', `item "${item}" must be A-Z, 0-9 and _`);
  return underMutex(root, opts, () => {
    assertMayWrite(c, root);
    const l = load(c, root);
    assertStage(l, stage);
    const key = `CB_${stage}_${item}`;
    if (l.checklist.values[key] === value) return 'unchanged';
    if (value === '0' && stageDone(stage, l.state.values))
      throw new CkptError(
        'REFUSED',
        `${stage} is done: clearing ${key} would leave a done stage with an open check`,
      );
    replaceEnvFile(
      c.fs,
      join(root, RUN_FILES.checklist),
      { ...l.checklist.values, [key]: value },
      l.checklist.comments,
    );
    appendLogLine(c, root, `check ${key}=${value}`);
    return 'changed';
  });
}

/**
 * `ckpt resumable stage-done`: sets <STAGE>_DONE=1 and moves CURRENT_STAGE to the next stage not done (or DONE).
 * Refused (exit 2) while an earlier stage is not done, any required checklist key is not 1, the stage's artifacts
 * are missing, or the contract drifted.
 */
export function markResumableStageDone(
  root: string,
  stage: string,
  opts: ResumableWriteOptions = {},
): 'changed' | 'unchanged' {
  const c = ctxOf(opts);
  return underMutex(root, opts, () => {
    assertMayWrite(c, root);
    const l = load(c, root);
    assertStage(l, stage);
    const s = l.state.values;
    if (stageDone(stage, s)) return 'unchanged';
    const before = l.stages.filter((st) => compareStages(st, stage) < 0 && !stageDone(st, s));
    if (before.length > 0)
      throw new CkptError('REFUSED', `${before.join(', ')} not done yet: stages are done in order`);
    if (!checklistComplete(stage, l.checklist.values)) {
      const open = checksOf(stage, l.checklist.values).filter((i) => !i.done);
      throw new CkptError(
        'REFUSED',
        open.length === 0
          ? `${stage} has no checklist keys (CB_${stage}_<ITEM>); a missing key never means done`
          : `${stage} checklist incomplete: ${open.map((i) => `${i.key}=${i.value ?? '(missing)'}`).join(', ')}`,
      );
    }
    if (checklistDoneFlag(stage, s, l.checklist.values) === '0')
      throw new CkptError('REFUSED', `${stage} checklist incomplete: ${stage}_CHECKLIST_DONE=0`);
    const art = missingArtifacts(
      stage,
      s,
      l.checklist.values,
      listArtifacts(c, join(root, RUN_FILES.artifacts)).filter((a) => a !== 'contract.env'),
      c.fs.existsSync(join(root, RUN_FILES.contract)),
    );
    if (art.missing.length > 0)
      throw new CkptError('REFUSED', `${stage} gate: missing artifacts/${art.missing.join(', artifacts/')}`);
    assertNoDrift(c, root, l.state);
    const next = { ...s, [`${stage}_DONE`]: '1' };
    next.CURRENT_STAGE = l.stages.find((st) => !stageDone(st, next)) ?? 'DONE';
    replaceEnvFile(c.fs, join(root, RUN_FILES.state), next, l.state.comments);
    appendLogLine(c, root, `${stage} done; CURRENT_STAGE=${next.CURRENT_STAGE}`);
    return 'changed';
  });
}

/** `ckpt resumable log`: appends `[time] message` to run.log. */
/** run.log is read, shared and committed: a secret-looking line is refused (exit 2), never echoed. */
function refuseSecret(field: string, text: string): void {
  const why = secretRefusal(field, text);
  if (why) throw new CkptError('REFUSED', why);
}

export function appendResumableLog(root: string, message: string, opts: ResumableWriteOptions = {}): void {
  refuseSecret('the log line', message);
  const c = ctxOf(opts);
  underMutex(root, opts, () => {
    assertMayWrite(c, root);
    appendLogLine(c, root, message);
  });
}

/**
 * `ckpt resumable finalize`: after the push is confirmed, appends the summary block under its RUN_ID marker (once:
 * skipped when run.log already holds it) and sets every finalization flag (once). A second call changes nothing.
 */
export function finalizeResumableRun(
  root: string,
  opts: ResumableWriteOptions & { summary?: string } = {},
): 'finalized' | 'unchanged' {
  if (opts.summary !== undefined) refuseSecret('--summary', opts.summary);
  const c = ctxOf(opts);
  return underMutex(root, opts, () => {
    assertMayWrite(c, root);
    const l = load(c, root);
    const s = l.state.values;
    const runId = s.RUN_ID;
    if (!runId) throw new CkptError('REFUSED', 'state.env has no RUN_ID: stop');
    const open = l.stages.filter((st) => !stageComplete(st, s, l.checklist.values));
    if (open.length > 0) throw new CkptError('REFUSED', `cannot finalize: ${open.join(', ')} not done`);
    if (!pushProgress(l.stages, s, l.checklist.values).confirmed)
      throw new CkptError('REFUSED', 'cannot finalize before the push is confirmed');
    assertNoDrift(c, root, l.state);
    const logPath = join(root, RUN_FILES.log);
    const logText = c.fs.existsSync(logPath) ? new TextDecoder().decode(c.fs.readFileSync(logPath)) : '';
    let changed = false;
    if (summaryLines(parseRunLog(logText), runId).length === 0) {
      const text = opts.summary ?? `stages ${l.stages.join(', ')} done; finalization complete`;
      appendLogLine(c, root, `${summaryMarker(runId)} ${text}`);
      changed = true;
    }
    if (FINALIZATION_FLAGS.some((f) => s[f] !== '1') || !isTerminalStage(s.CURRENT_STAGE)) {
      const next: Record<string, string> = {
        ...s,
        CURRENT_STAGE: isTerminalStage(s.CURRENT_STAGE) ? s.CURRENT_STAGE! : 'DONE',
      };
      for (const f of FINALIZATION_FLAGS) next[f] = '1';
      replaceEnvFile(c.fs, join(root, RUN_FILES.state), next, l.state.comments);
      changed = true;
    }
    return changed ? 'finalized' : 'unchanged';
  });
}
