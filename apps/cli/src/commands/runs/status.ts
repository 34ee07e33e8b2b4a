import {
  forTerminal,
  needsPerson,
  type RunSummary,
  type RunView,
  redactSecretsIn,
  runDocument,
  runsDocument,
  summariesDocument,
  summarizeRun,
} from '@ckpt/core';
import { type ColorMode, colorsFor } from '../../output/color.js';
import { printJson, printText } from '../../output/print.js';
import { formatRunList } from './format-list.js';
import { formatRun } from './format-run.js';
import { commandsFrom, loadRuns, pickRun } from './load.js';

export interface StatusFlags {
  readonly run?: string;
  readonly dialect?: string;
  readonly json?: boolean;
  readonly exitStatus?: boolean;
  readonly color?: string;
  readonly showSecrets?: boolean;
}

/** `ckpt status [dir] [--run id]`: every run newest first, or one run in detail. */
export function runStatus(dir: string | undefined, flags: StatusFlags): number {
  // The list shows only each run's summary: runs are loaded as written and for their summaries only, and the
  // summaries redacted (`listed`).
  const listOnly = flags.run === undefined && !flags.json;
  const runs = loadRuns(dir, flags.dialect, flags.json, flags.showSecrets || listOnly, listOnly);
  const c = colorsFor((flags.color ?? 'auto') as ColorMode);
  if (flags.run !== undefined) {
    const run = pickRun(runs, flags.run, flags.dialect);
    if (flags.json) printJson(runDocument(run));
    else printText(formatRun(forTerminal(run), c, undefined, commandsFrom(dir)));
    return flags.exitStatus && needsPerson(run.attention) ? 1 : 0;
  }
  if (flags.json) printJson(runsDocument(runs));
  else printText(formatRunList(listed(runs, flags), c));
  return listExit(runs, flags);
}

/**
 * The one-line facts of runs loaded as written (`showSecrets`), redacted unless `--show-secrets`: what summarizing
 * the redacted runs gives (a summary only copies a run's values, under the same keys but `resume`, which is no
 * name key either), without redacting every unit, source and plan item of a 100k-event run that the list never
 * shows.
 */
function listed(runs: readonly RunView[], flags: Pick<StatusFlags, 'showSecrets'>): RunSummary[] {
  return runs.map((r) => {
    const s = summarizeRun(r);
    return forTerminal(flags.showSecrets ? s : redactSecretsIn(s));
  });
}

const listExit = (runs: readonly RunView[], flags: StatusFlags) =>
  flags.exitStatus && runs.some((r) => needsPerson(r.attention)) ? 1 : 0;

/**
 * `ckpt list [dir]`: every run on one line, the list `ckpt status` prints; `--json` prints the one-line facts
 * (the summaries document, without units), not the full RunViews.
 */
export function runList(dir: string | undefined, flags: Omit<StatusFlags, 'run'>): number {
  const runs = loadRuns(dir, flags.dialect, flags.json, flags.showSecrets || !flags.json, true);
  if (flags.json) printJson(summariesDocument(runs));
  else printText(formatRunList(listed(runs, flags), colorsFor((flags.color ?? 'auto') as ColorMode)));
  return listExit(runs, flags);
}
