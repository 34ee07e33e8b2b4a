import {
  acquireResumableLock,
  appendResumableLog,
  escapeTerminal,
  finalizeResumableRun,
  forTerminal,
  initResumableRun,
  markResumableStageDone,
  redactSecretsIn,
  releaseResumableLock,
  resolveResumableRunRoot,
  resumableStatus,
  setResumableCheck,
} from '@ckpt/core';
import { printJson, printText } from '../../output/print.js';
import { InputError, UsageError } from '../../usage-error.js';
import { formatStatus } from './format.js';

interface Where {
  run?: string;
  configDir?: string;
  pid?: number;
}

const configDir = (o: Where) => o.configDir ?? process.env.OPENCODE_CONFIG_DIR ?? undefined;
const rootOf = (o: Where) => resolveResumableRunRoot({ run: o.run, configDir: configDir(o) });
// The lock belongs to the shell or agent that calls ckpt, which outlives this process.
const writer = (o: Where) => ({ pid: o.pid ?? process.ppid });
const say = (msg: string) => process.stderr.write(`ckpt: ${escapeTerminal(msg)}\n`);

export function status(
  dir: string | undefined,
  o: { run?: string; json?: boolean; showSecrets?: boolean },
): void {
  const target = dir ?? o.run ?? process.env.OPENCODE_CONFIG_DIR ?? '.';
  const found = resumableStatus(target);
  const runs = o.showSecrets ? found : redactSecretsIn(found);
  if (runs.length === 0) throw new InputError(`no resumable run roots under ${target}`);
  if (o.json) {
    const out = runs.map((r) => ({
      dir: r.dir,
      ...r.view,
      resume: { ...r.view.resume, native: undefined },
      decision: r.resume,
    }));
    printJson(out);
    return;
  }
  printText(runs.map((r) => formatStatus(forTerminal(r))).join('\n'));
}

export function init(o: Where & Record<string, string | string[] | undefined>): void {
  const dir = configDir(o);
  if (!dir) throw new UsageError('no config dir: pass --config-dir or set OPENCODE_CONFIG_DIR');
  const root = initResumableRun({
    configDir: dir,
    task: String(o.task),
    ...(o.runId ? { runId: String(o.runId) } : {}),
    repoRoot: String(o.repoRoot),
    branch: String(o.branch),
    basePin: String(o.basePin),
    expectedOldSha: String(o.expectedOldSha),
    planPath: String(o.plan),
    reportTargets: String(o.reportTargets ?? ''),
    stages: String(o.stages ?? 'S1,S2,S3,S4')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    checks: (o.check as string[] | undefined) ?? [],
  });
  printText(`${escapeTerminal(root)}\n`);
}

export function lock(o: Where & { steal?: boolean }): void {
  const outcome = acquireResumableLock(rootOf(o), { ...writer(o), steal: o.steal ?? false });
  say(outcome === 'replaced-stale' ? 'stale lock logged to run.log and replaced' : `lock ${outcome}`);
}

export function unlock(o: Where & { force?: boolean }): void {
  const outcome = releaseResumableLock(rootOf(o), { ...writer(o), force: o.force ?? false });
  say(outcome === 'none' ? 'no lock to remove' : 'lock released');
}

export function check(stage: string, item: string, value: string, o: Where): void {
  if (value !== '0' && value !== '1') throw new UsageError(`value must be 0 or 1, got "${value}"`);
  const r = setResumableCheck(rootOf(o), stage, item, value, writer(o));
  say(`CB_${stage}_${item}=${value}${r === 'unchanged' ? ' (unchanged)' : ''}`);
}

export function stageDone(stage: string, o: Where): void {
  const r = markResumableStageDone(rootOf(o), stage, writer(o));
  say(r === 'unchanged' ? `${stage} was already done` : `${stage} done`);
}

export function log(words: string[], o: Where): void {
  const message = words.join(' ');
  if (message.trim() === '') throw new UsageError('empty message');
  appendResumableLog(rootOf(o), message, writer(o));
}

export function finalize(o: Where & { summary?: string }): void {
  const r = finalizeResumableRun(rootOf(o), { ...writer(o), ...(o.summary ? { summary: o.summary } : {}) });
  say(r === 'unchanged' ? 'already finalized: nothing changed' : 'finalized');
}
