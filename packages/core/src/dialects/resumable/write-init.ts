import { join, resolve } from 'node:path';
import { CkptError } from '../../errors.js';
import { writeOnce } from '../../fs/atomic.js';
import { serializeEnv } from '../../parse/env.js';
import { secretRefusal } from '../../text/secrets.js';
import { readEnvFile, replaceEnvFile } from './env-file.js';
import { RUN_FILES } from './load.js';
import { SUPPORTED_SCHEMA_VERSION } from './rules.js';
import { compareStages, isStageName, runIdFor } from './stages.js';
import { appendLogLine, ctxOf, type ResumableWriteOptions } from './write-common.js';

/** What `ckpt resumable init` needs: the task, the immutable contract, the stages and their checks. */
export interface ResumableInit {
  /** `$OPENCODE_CONFIG_DIR`: the run root is `<configDir>/reports/<task>-<runId>`. */
  readonly configDir: string;
  readonly task: string;
  /** Default: now, as `date -u +%Y%m%dT%H%M%SZ`. */
  readonly runId?: string;
  readonly repoRoot: string;
  readonly branch: string;
  readonly basePin: string;
  readonly expectedOldSha: string;
  readonly planPath: string;
  /** Comma-separated report files. */
  readonly reportTargets: string;
  /** Stage names, e.g. S1..S4 (default) or M1..M3. */
  readonly stages?: readonly string[];
  /** Checklist items as `<STAGE>:<ITEM>`, created as 0. */
  readonly checks?: readonly string[];
}

const SHA = /^([0-9a-f]{40}|[0-9a-f]{64})$/;
const CONTRACT_HEADER = ['immutable contract recorded at bootstrap by ckpt resumable init; never edited'];

function validate(init: ResumableInit, runId: string, stages: readonly string[]): void {
  const bad = (m: string) => new CkptError('USAGE', m);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(init.task))
    throw bad(`task "${init.task}" must be letters, digits, . _ -`);
  if (!/^[0-9]{8}T[0-9]{6}Z$/.test(runId)) throw bad(`run id "${runId}" is not yyyymmddThhmmssZ`);
  if (!SHA.test(init.basePin)) throw bad('--base-pin must be a full lowercase hex SHA');
  if (!SHA.test(init.expectedOldSha)) throw bad('--expected-old-sha must be a full lowercase hex SHA');
  for (const [k, v] of Object.entries({
    '--repo-root': init.repoRoot,
    '--branch': init.branch,
    '--plan': init.planPath,
  }))
    if (v.trim() === '') throw bad(`${k} must not be empty`);
  for (const [k, v] of Object.entries({
    '--repo-root': init.repoRoot,
    '--branch': init.branch,
    '--plan': init.planPath,
    '--report-targets': init.reportTargets ?? '',
  })) {
    const secret = secretRefusal(k, v);
    if (secret) throw new CkptError('REFUSED', secret);
  }
  if (stages.length === 0 || !stages.every(isStageName)) throw bad('--stages must list S<n> or M<n> names');
  for (const ch of init.checks ?? []) {
    const [st, item] = ch.split(':');
    if (!st || !stages.includes(st) || !item || !/^[A-Z0-9_]+$/.test(item))
      throw bad(`--check "${ch}" must be <STAGE>:<ITEM> with a declared stage and an A-Z0-9_ item`);
  }
}

/**
 * Bootstraps a run root: artifacts/, the contract recorded once (artifacts/contract.env, written with link so it
 * is never replaced), checklist.state.env, the run.log start line, and state.env last (its presence is what makes
 * the run exist). Refused when the run root already has a state.env. Returns the run root.
 */
export function initResumableRun(init: ResumableInit, opts: ResumableWriteOptions = {}): string {
  const c = ctxOf(opts);
  const runId = init.runId ?? runIdFor(c.now());
  const stages = [...new Set(init.stages ?? ['S1', 'S2', 'S3', 'S4'])].sort(compareStages);
  validate(init, runId, stages);
  const root = resolve(init.configDir, 'reports', `${init.task}-${runId}`);
  if (c.fs.existsSync(join(root, RUN_FILES.state)))
    throw new CkptError('REFUSED', `run root ${root} already exists; resume it or start a new run`);
  const contract: Record<string, string> = {
    RUN_ID: runId,
    CONTRACT_REPO_ROOT: init.repoRoot,
    CONTRACT_BRANCH: init.branch,
    CONTRACT_BASE_PIN: init.basePin,
    CONTRACT_EXPECTED_OLD_SHA: init.expectedOldSha,
    CONTRACT_PLAN_PATH: init.planPath,
    CONTRACT_REPORT_TARGETS: init.reportTargets,
  };
  c.fs.mkdirSync(join(root, RUN_FILES.artifacts), { recursive: true });
  const contractPath = join(root, RUN_FILES.contract);
  if (!writeOnce(contractPath, serializeEnv(contract, CONTRACT_HEADER), { fs: c.fs })) {
    // A bootstrap interrupted before state.env: go on only with the very same contract.
    const recorded = readEnvFile(c.fs, contractPath, 'artifacts/contract.env').values;
    if (Object.entries(contract).some(([k, v]) => recorded[k] !== v))
      throw new CkptError('REFUSED', `${contractPath} records a different contract: start a new run`);
  }
  const checklist: Record<string, string> = { CHECKLIST_SCHEMA_VERSION: SUPPORTED_SCHEMA_VERSION };
  for (const ch of init.checks ?? []) {
    const [st, item] = ch.split(':');
    checklist[`CB_${st}_${item}`] = '0';
  }
  replaceEnvFile(c.fs, join(root, RUN_FILES.checklist), checklist);
  appendLogLine(c, root, `run start RUN_ID=${runId} task=${init.task}`);
  const state: Record<string, string> = {
    STATE_SCHEMA_VERSION: SUPPORTED_SCHEMA_VERSION,
    RUN_ID: runId,
    TASK_NAME: init.task,
    RUN_ROOT: root,
    REPO_ROOT: init.repoRoot,
    PLAN_PATH: init.planPath,
    ARTIFACT_ROOT: join(root, RUN_FILES.artifacts),
    LOCK_FILE: join(root, RUN_FILES.lock),
    CURRENT_STAGE: stages[0]!,
    CANONICAL_STATE_UPDATED: '0',
    REPORT_APPENDED: '0',
    RUN_SUMMARY_UPDATED: '0',
    ...contract,
  };
  for (const st of stages) state[`${st}_DONE`] = '0';
  replaceEnvFile(c.fs, join(root, RUN_FILES.state), state);
  return root;
}
