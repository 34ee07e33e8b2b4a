import {
  HISTORY_KINDS,
  type HistoryDocument,
  type HistoryKind,
  isHistoryKind,
  projectReader,
  type RunView,
  runHistory,
} from '@ckpt/core';
import { type ColorMode, type Colors, colorsFor } from '../../output/color.js';
import { printJson, printText } from '../../output/print.js';
import { InputError, UsageError } from '../../usage-error.js';
import { loadRuns, pickRun } from './load.js';
import { projectDir } from './project-dir.js';
import { safe } from './text.js';

export interface HistoryFlags {
  readonly run: string;
  readonly unit?: string;
  readonly kinds?: string;
  readonly dialect?: string;
  readonly json?: boolean;
  readonly color?: string;
  readonly showSecrets?: boolean;
}

const PAINT: Partial<Record<HistoryKind, keyof Colors>> = {
  started: 'blue',
  finished: 'green',
  approved: 'green',
  resolved: 'green',
  failed: 'red',
  blocked: 'red',
  finding: 'red',
  retried: 'yellow',
  decision: 'yellow',
};

/** The history as text: one line per event, oldest first, with the file and line it was read from. */
export function formatHistory(run: RunView, doc: HistoryDocument, c: Colors): string {
  const head = `${c.bold(safe(`${run.dialect}/${run.id}`))}${doc.unit !== undefined ? `  unit ${safe(doc.unit)}` : ''}  ${c.dim(`${doc.entries.length} event${doc.entries.length === 1 ? '' : 's'}`)}\n`;
  const width = Math.max(1, ...doc.entries.map((e) => (e.at ?? '—').length));
  const lines = doc.entries.map((e) => {
    const paint = PAINT[e.kind];
    const kind = e.kind.padEnd(9);
    const at = (e.at ?? '—').replace('T', ' ').padEnd(width);
    const units = doc.unit === undefined && e.units.length > 0 ? `${c.cyan(safe(e.units.join(',')))} ` : '';
    return `${c.dim(at)}  ${paint ? (c[paint] as (s: string) => string)(kind) : kind} ${units}${safe(e.text)}  ${c.dim(safe(`${e.file}:${e.line}`))}\n`;
  });
  return head + (lines.length > 0 ? lines.join('') : `${c.dim('no recorded events')}\n`);
}

/** `ckpt history [dir] --run id [--unit id] [--kinds a,b]`: a run's (or one unit's) events, from its files. */
export function runHistoryCommand(dir: string | undefined, flags: HistoryFlags): number {
  let kinds: HistoryKind[] | undefined;
  if (flags.kinds !== undefined) {
    const list = flags.kinds.split(',').filter(Boolean);
    const bad = list.filter((k) => !isHistoryKind(k));
    if (bad.length > 0)
      throw new UsageError(`unknown kind(s) ${bad.join(', ')}; kinds are ${HISTORY_KINDS.join(', ')}`);
    kinds = list as HistoryKind[];
  }
  const run = pickRun(loadRuns(dir, flags.dialect, flags.json, flags.showSecrets), flags.run, flags.dialect);
  if (flags.unit !== undefined && !run.units.some((u) => u.id === flags.unit))
    throw new InputError(
      `no unit "${flags.unit}" in ${run.dialect} run "${run.id}"; \`ckpt status --run\` lists them`,
    );
  const doc = runHistory(run, projectReader(projectDir(dir).dir), {
    ...(flags.unit !== undefined ? { unit: flags.unit } : {}),
    ...(kinds ? { kinds } : {}),
    ...(flags.showSecrets ? { showSecrets: true } : {}),
  });
  if (flags.json) printJson(doc);
  else printText(formatHistory(run, doc, colorsFor((flags.color ?? 'auto') as ColorMode)));
  return 0;
}
