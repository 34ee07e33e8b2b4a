import type { RunView } from '../run-view.js';
import { entry, findingEntry, type HistoryEntry, type ReadSource } from './entry.js';

interface Parsed {
  readonly value: Record<string, unknown> | undefined;
  readonly lineOf: (key: string) => number;
}

/** 1-based line of the first `"key":` in a text (a team file is one flat object), 1 when absent. */
function lineOfKey(text: string, key: string): number {
  const at = text.search(new RegExp(`"${key}"\\s*:`));
  if (at < 0) return 1;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

// JSON.parse and a key search, not the full parser with its source map: a run of 100,000 event files is read
// whole for its history, and a file that does not parse is already a finding of the run.
function parse(read: ReadSource, file: string): Parsed {
  const text = read(file);
  if (text === undefined) return { value: undefined, lineOf: () => 1 };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { value: undefined, lineOf: () => 1 };
  }
  const value = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  return { value, lineOf: (k) => lineOfKey(text, k) };
}

const s = (v: Record<string, unknown> | undefined, k: string) =>
  typeof v?.[k] === 'string' && v[k] !== '' ? (v[k] as string) : undefined;

/** One task event file as an entry: started, retried, finished or failed, at the line of its `at`. */
function eventEntry(file: string, task: string, attempt: number, p: Parsed): HistoryEntry | undefined {
  const v = p.value;
  if (!v) return undefined;
  const at = s(v, 'at');
  const line = p.lineOf('at');
  const agent = s(v, 'agent');
  if (v.event === 'task_started') {
    const retryOf = typeof v.retry_of === 'number' ? v.retry_of : undefined;
    if (retryOf !== undefined)
      return entry(
        'retried',
        at,
        [task],
        `attempt ${attempt} started as a retry of #${retryOf}${s(v, 'reason') ? `: ${s(v, 'reason')}` : ''}`,
        file,
        line,
      );
    return entry(
      'started',
      at,
      [task],
      `attempt ${attempt} started${agent ? ` by ${agent}` : ''}`,
      file,
      line,
    );
  }
  if (v.event !== 'task_finished') return undefined;
  const status = s(v, 'status') ?? '?';
  const kind = status === 'failed' || status === 'interrupted' ? 'failed' : 'finished';
  const why = s(v, 'evidence') ?? s(v, 'next');
  return entry(kind, at, [task], `attempt ${attempt} ${status}${why ? `: ${why}` : ''}`, file, line);
}

/**
 * A team run's history: run.json's creation, every task event (started, retried, finished, failed), every
 * approval (on the tasks of its stage that produced the artifact), and the findings of each file at its time.
 */
export function teamHistory(run: RunView, read: ReadSource, unit?: string): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  const unitsOf = new Map<string, string[]>();
  const timeOf = new Map<string, string>();
  const runFile = run.sources.find((x) => x.kind === 'team/run')?.path;
  if (runFile) {
    const p = parse(read, runFile);
    const at = s(p.value, 'created_at');
    if (at) timeOf.set(runFile, at);
    if (p.value)
      out.push(
        entry(
          'created',
          at,
          [],
          `run created: profile ${s(p.value, 'profile') ?? '?'}, stage ${s(p.value, 'stage') ?? '?'}`,
          runFile,
          p.lineOf('created_at'),
        ),
      );
  }
  for (const u of run.units) {
    // Narrowed to one task, only that task's files are read.
    if (unit !== undefined && u.id !== unit) continue;
    for (const a of u.attempts)
      for (const file of a.sources ?? []) {
        unitsOf.set(file, [u.id]);
        const e = eventEntry(file, u.id, a.attempt, parse(read, file));
        if (e) {
          out.push(e);
          if (e.at) timeOf.set(file, e.at);
        }
      }
  }
  for (const ap of run.approvals) {
    const ofStage = run.units.filter((u) => u.stage === ap.stage);
    const made = ofStage.filter((u) => u.artifacts.includes(ap.artifact));
    const tasks = (made.length > 0 ? made : ofStage).map((u) => u.id);
    if (unit !== undefined && !tasks.includes(unit)) continue;
    const p = parse(read, ap.source);
    unitsOf.set(ap.source, tasks);
    timeOf.set(ap.source, ap.approvedAt);
    out.push(
      entry(
        'approved',
        ap.approvedAt,
        tasks,
        `gate ${ap.stage} approved by ${ap.by} for ${ap.artifact} (${ap.state})${ap.note ? `: ${ap.note}` : ''}`,
        ap.source,
        p.lineOf('approved_at'),
      ),
    );
  }
  for (const f of run.findings) out.push(findingEntry(f, unitsOf.get(f.file) ?? [], timeOf.get(f.file)));
  return out;
}
