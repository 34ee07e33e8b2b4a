import { parseRunLog } from '../../dialects/resumable/run-log.js';
import { parseEnv } from '../../parse/env.js';
import type { RunView } from '../run-view.js';
import { entry, findingEntry, type HistoryEntry, type HistoryKind, type ReadSource } from './entry.js';

/** The first stage a text names (`S2 done`, `CB_S1_TESTS=1`, `M3`), as a unit of the run. */
function stageIn(text: string, stages: ReadonlySet<string>): string | undefined {
  for (const token of text.split(/[^A-Za-z0-9]+/)) if (stages.has(token)) return token;
  return undefined;
}

function kindOf(message: string, stage: string | undefined, summary: boolean): HistoryKind {
  if (summary) return 'finished';
  if (/^(run )?(start|resum)/i.test(message)) return 'started';
  if (/\block\b|\block[- ]?file/i.test(message)) return 'lock';
  if (/^check\b|\bCB_[A-Za-z0-9]/.test(message)) return 'check';
  if (/\b(fail(ed|ure)?|error|abort(ed)?|refused|stop(ped)?)\b/i.test(message)) return 'failed';
  if (stage && /\bdone\b|\bcomplete(d)?\b/i.test(message)) return 'finished';
  if (/\b(start(ed)?|begin|resum(e|ed|ing))\b/i.test(message)) return 'started';
  return 'log';
}

/**
 * A resumable run's history: every run.log line (stamped ones at their time) classified by what it says and
 * given to the stage it names; the lock's acquisition; the stage flags of state.env when there is no log.
 */
export function resumableHistory(run: RunView, read: ReadSource): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  const stages = new Set(run.units.map((u) => u.id));
  const logFile = run.sources.find((x) => x.path === 'run.log' || x.path.endsWith('/run.log'))?.path;
  const logText = logFile ? read(logFile) : undefined;
  if (logFile && logText !== undefined)
    for (const l of parseRunLog(logText)) {
      if (l.message.trim() === '') continue;
      const stage = stageIn(l.message, stages);
      const summary = l.summaryRunId !== undefined;
      out.push(
        entry(
          kindOf(l.message, stage, summary),
          l.at,
          stage && !summary ? [stage] : [],
          summary ? `run summary (RUN_ID ${l.summaryRunId})` : l.message,
          logFile,
          l.line,
        ),
      );
    }
  const lock = run.sources.find((x) => x.kind === 'resumable/lock')?.path;
  const lockText = lock ? read(lock) : undefined;
  if (lock && lockText !== undefined) {
    const env = parseEnv(lockText, lock);
    const v = env.values;
    const e = env.entries.find((x) => x.key === 'acquired_at_utc');
    out.push(
      entry(
        'lock',
        v.acquired_at_utc,
        [],
        `lock file held by ${v.user ?? '?'}@${v.host ?? '?'} pid ${v.pid ?? '?'}`,
        lock,
        e?.line ?? 1,
      ),
    );
  }
  const state = run.sources.find((x) => x.kind === 'resumable/state-env')?.path;
  const stateText = state && logText === undefined ? read(state) : undefined;
  if (state && stateText !== undefined)
    for (const e of parseEnv(stateText, state).entries) {
      const m = /^([A-Za-z]+[0-9]+)_DONE$/.exec(e.key);
      if (m && stages.has(m[1]!) && e.value === '1')
        out.push(entry('finished', undefined, [m[1]!], `${e.key}=1 (no time recorded)`, state, e.line));
    }
  for (const f of run.findings) {
    const stage = stageIn(`${f.pointer} ${f.message}`, stages);
    out.push(findingEntry(f, stage ? [stage] : []));
  }
  return out;
}
