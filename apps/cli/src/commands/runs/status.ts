import {
  forTerminal,
  needsPerson,
  type RunView,
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
  const runs = loadRuns(dir, flags.dialect, flags.json, flags.showSecrets);
  const c = colorsFor((flags.color ?? 'auto') as ColorMode);
  if (flags.run !== undefined) {
    const run = pickRun(runs, flags.run, flags.dialect);
    if (flags.json) printJson(runDocument(run));
    else printText(formatRun(forTerminal(run), c, undefined, commandsFrom(dir)));
    return flags.exitStatus && needsPerson(run.attention) ? 1 : 0;
  }
  if (flags.json) printJson(runsDocument(runs));
  else
    printText(
      formatRunList(
        runs.map((r) => forTerminal(summarizeRun(r))),
        c,
      ),
    );
  return listExit(runs, flags);
}

const listExit = (runs: readonly RunView[], flags: StatusFlags) =>
  flags.exitStatus && runs.some((r) => needsPerson(r.attention)) ? 1 : 0;

/**
 * `ckpt list [dir]`: every run on one line, the list `ckpt status` prints; `--json` prints the one-line facts
 * (the summaries document, without units), not the full RunViews.
 */
export function runList(dir: string | undefined, flags: Omit<StatusFlags, 'run'>): number {
  const runs = loadRuns(dir, flags.dialect, flags.json, flags.showSecrets);
  if (flags.json) printJson(summariesDocument(runs));
  else
    printText(
      formatRunList(
        runs.map((r) => forTerminal(summarizeRun(r))),
        colorsFor((flags.color ?? 'auto') as ColorMode),
      ),
    );
  return listExit(runs, flags);
}
