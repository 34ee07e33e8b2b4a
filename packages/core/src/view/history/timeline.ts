import { RUN_VIEW_FORMAT_VERSION, type RunView, type Tone, type UnitView } from '../run-view.js';
import type { ReadSource } from './entry.js';
import { runHistory, unitSpans } from './history.js';

/** A bar: start and end in ms since the epoch (end null while open), and its tone. */
export type TimelineBar = readonly [start: number, end: number | null, tone: Tone];

export interface TimelineRow {
  readonly id: string;
  readonly kind: 'unit' | 'phase';
  /** Index in `run.units` (units only): the address the viewer opens a unit by. */
  readonly index?: number;
  readonly status: string;
  readonly tone: Tone;
  readonly bars: readonly TimelineBar[];
}

/** `GET /api/runs/<dialect>/<id>/timeline`: every phase and unit with its bars, for the Gantt. */
export interface TimelineDocument {
  readonly formatVersion: number;
  readonly run: { readonly dialect: string; readonly id: string };
  /** The span the bars cover (ms); absent when nothing has a time. */
  readonly lo?: number;
  readonly hi?: number;
  /** Units whose bars come from their history (first to last event), not from recorded start/end times. */
  readonly fromHistory: number;
  readonly rows: readonly TimelineRow[];
}

const ms = (iso: string | undefined) => {
  const t = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(t) ? undefined : t;
};

function recordedBars(u: UnitView, runStart: number | undefined): TimelineBar[] {
  const bars: TimelineBar[] = [];
  let prevEnd = runStart;
  for (const a of u.attempts) {
    const e = ms(a.endedAt);
    // An attempt that records only its end (an agent-context iteration) ran since the previous one ended.
    const s = ms(a.startedAt) ?? (e !== undefined ? (prevEnd ?? e) : undefined);
    if (s !== undefined) bars.push([s, e ?? null, a.tone]);
    prevEnd = e ?? prevEnd;
  }
  if (bars.length === 0 && ms(u.startedAt) !== undefined)
    bars.push([ms(u.startedAt)!, ms(u.finishedAt) ?? null, u.tone]);
  return bars;
}

/**
 * The Gantt's rows: phases with times, then every unit with a bar per attempt (or its own start/end). Units
 * with no recorded times (resumable stages) get one bar from the first to the last event of their history,
 * read through `read` when given.
 */
export function runTimeline(run: RunView, read?: ReadSource): TimelineDocument {
  const runStart = ms(run.createdAt);
  const rows: TimelineRow[] = [];
  for (const p of run.phases) {
    const s = ms(p.startedAt);
    if (s !== undefined)
      rows.push({
        id: p.id,
        kind: 'phase',
        status: p.status,
        tone: p.tone,
        bars: [[s, ms(p.finishedAt) ?? null, p.tone]],
      });
  }
  const recorded = run.units.map((u) => recordedBars(u, runStart));
  let fromHistory = 0;
  const spans =
    read && recorded.some((b) => b.length === 0) ? unitSpans(runHistory(run, read).entries) : undefined;
  run.units.forEach((u, index) => {
    let bars = recorded[index]!;
    const span = spans?.get(u.id);
    if (bars.length === 0 && span) {
      bars = [[ms(span.start)!, ms(span.end)!, u.tone]];
      fromHistory++;
    }
    rows.push({ id: u.id, kind: 'unit', index, status: u.status, tone: u.tone, bars });
  });
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const r of rows)
    for (const [s, e] of r.bars) {
      lo = Math.min(lo, s);
      hi = Math.max(hi, e ?? s);
    }
  for (const t of [ms(run.updatedAt), ms(run.finishedAt)])
    if (t !== undefined && Number.isFinite(lo)) hi = Math.max(hi, t);
  return {
    formatVersion: RUN_VIEW_FORMAT_VERSION,
    run: { dialect: run.dialect, id: run.id },
    ...(Number.isFinite(lo) ? { lo, hi: Math.max(hi, lo + 1000) } : {}),
    fromHistory,
    rows,
  };
}
