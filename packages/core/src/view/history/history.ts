import type { DialectId } from '../../dialects/dialect.js';
import { redactSecrets } from '../../text/secrets.js';
import { RUN_VIEW_FORMAT_VERSION, type RunView } from '../run-view.js';
import { agentContextHistory } from './agent-context.js';
import {
  HISTORY_KINDS,
  type HistoryBuilder,
  type HistoryEntry,
  type HistoryKind,
  type ReadSource,
} from './entry.js';
import { resumableHistory } from './resumable.js';
import { teamHistory } from './team.js';
import { ulpiHistory } from './ulpi.js';

const BUILDERS: Record<DialectId, HistoryBuilder> = {
  team: teamHistory,
  ulpi: ulpiHistory,
  resumable: resumableHistory,
  'agent-context': agentContextHistory,
};

/** `ckpt history --json` and `GET /api/runs/<dialect>/<id>/history`: a run's events, oldest first. */
export interface HistoryDocument {
  readonly formatVersion: number;
  readonly run: { readonly dialect: DialectId; readonly id: string };
  /** The unit the entries were narrowed to, if any. */
  readonly unit?: string;
  /** Entries per kind before the kind filter (what a filter offers). */
  readonly kinds: Readonly<Partial<Record<HistoryKind, number>>>;
  readonly entries: readonly HistoryEntry[];
}

export interface HistoryOptions {
  /** Only the entries of this unit (by id). */
  readonly unit?: string;
  /** Only these kinds. */
  readonly kinds?: readonly HistoryKind[];
  /** Keep secret-looking text as the files hold it (default: redacted, as everything ckpt shows). */
  readonly showSecrets?: boolean;
}

/** An entry with secret-looking text masked (file text: notes, evidence, log lines). */
function redacted(e: HistoryEntry): HistoryEntry {
  const text = redactSecrets(e.text);
  return text === e.text ? e : { ...e, text };
}

/** Oldest first; entries without a time follow the timed ones; ties keep the order the files gave. */
export function sortHistory(entries: readonly HistoryEntry[]): HistoryEntry[] {
  const keyed = entries.map((e, i) => ({ e, i, t: e.at ? Date.parse(e.at) : Number.NaN }));
  keyed.sort((a, b) => {
    const ua = Number.isNaN(a.t);
    const ub = Number.isNaN(b.t);
    if (ua !== ub) return ua ? 1 : -1;
    return (ua ? 0 : a.t - b.t) || a.i - b.i;
  });
  return keyed.map((k) => k.e);
}

/** True for a kind name ckpt knows. */
export function isHistoryKind(s: string): s is HistoryKind {
  return (HISTORY_KINDS as readonly string[]).includes(s);
}

/**
 * Every event of a run, oldest first, read from its files: team task events and approvals, the ulpi event log
 * (or the snapshot's timestamps), resumable run.log and lock, agent-context iterations and decisions, and the
 * findings of each file. `read` gets the project-relative paths the RunView lists as sources.
 */
export function runHistory(run: RunView, read: ReadSource, opts: HistoryOptions = {}): HistoryDocument {
  const doc: HistoryDocument = {
    formatVersion: RUN_VIEW_FORMAT_VERSION,
    run: { dialect: run.dialect, id: run.id },
    kinds: {},
    entries: sortHistory(
      BUILDERS[run.dialect](run, read, opts.unit).map((e) => (opts.showSecrets ? e : redacted(e))),
    ),
  };
  return filterHistory(doc, opts);
}

/** A history narrowed to one unit and some kinds (`kinds` counts the unit's entries before the kind filter). */
export function filterHistory(doc: HistoryDocument, opts: HistoryOptions): HistoryDocument {
  const unit = opts.unit;
  let entries = unit === undefined ? doc.entries : doc.entries.filter((e) => e.units.includes(unit));
  const kinds: Partial<Record<HistoryKind, number>> = {};
  for (const e of entries) kinds[e.kind] = (kinds[e.kind] ?? 0) + 1;
  if (opts.kinds) {
    const want = new Set(opts.kinds);
    entries = entries.filter((e) => want.has(e.kind));
  }
  return {
    formatVersion: doc.formatVersion,
    run: doc.run,
    ...(unit !== undefined ? { unit } : {}),
    kinds,
    entries,
  };
}

/** Kinds that say a unit was worked on (its creation, edits and findings do not). */
const WORK: ReadonlySet<HistoryKind> = new Set([
  'started',
  'finished',
  'failed',
  'retried',
  'blocked',
  'approved',
  'lock',
  'check',
  'iteration',
  'decision',
  'log',
]);

/** The first and last time each unit was worked on, by its history (the timeline of units that carry no times). */
export function unitSpans(entries: readonly HistoryEntry[]): Map<string, { start: string; end: string }> {
  const spans = new Map<string, { start: string; end: string }>();
  for (const e of entries) {
    if (!e.at || !WORK.has(e.kind) || Number.isNaN(Date.parse(e.at))) continue;
    for (const u of e.units) {
      const s = spans.get(u);
      if (!s) spans.set(u, { start: e.at, end: e.at });
      else {
        if (Date.parse(e.at) < Date.parse(s.start)) s.start = e.at;
        if (Date.parse(e.at) > Date.parse(s.end)) s.end = e.at;
      }
    }
  }
  return spans;
}
