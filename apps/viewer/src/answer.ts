// The JSON API's documents, built where the runs are: on the loader thread (the default: the server thread holds
// no RunView, only each run's head), or on the server thread when a `load` is injected.
import { createHash } from 'node:crypto';
import {
  filterHistory,
  type HistoryDocument,
  type HistoryKind,
  isHistoryKind,
  projectReader,
  RUN_VIEW_FORMAT_VERSION,
  type RunView,
  resumeDocument,
  runDocument,
  runGraph,
  runHistory,
  runsDocument,
  runTimeline,
  summariesDocument,
} from '@ckpt/core';
import { lookupRun } from './delta.js';
import { COMPRESS_THRESHOLD, compress, type Encoding } from './encoding.js';
import {
  findingsPage,
  MAX_PAGE,
  PAGE_UNITS,
  pageDocument,
  sourcesDocument,
  unitDocument,
  unitsPage,
} from './slim.js';

/** Paging and selection in a query string (`?offset=&limit=`, `?id=a&id=b`, `?units=n`). */
export interface PageQuery {
  readonly offset?: string;
  readonly limit?: string;
  readonly id?: string | string[];
  readonly units?: string;
}

export interface HistoryQuery {
  readonly unit?: string;
  readonly kinds?: string;
  readonly offset?: string;
  readonly limit?: string;
}

/** What a request asks for: a document of every run, of one run, or whether a file is a source of some run. */
export type Query =
  | { readonly kind: 'runs' }
  | { readonly kind: 'summaries' }
  | { readonly kind: 'listed'; readonly path: string }
  | {
      readonly kind: 'run' | 'resume' | 'page' | 'units' | 'findings' | 'sources' | 'unit' | 'unitAt';
      readonly dialect: string;
      readonly id: string;
      readonly query?: PageQuery & { readonly index?: string };
      readonly unit?: string;
    }
  | { readonly kind: 'graph' | 'timeline'; readonly dialect: string; readonly id: string }
  | { readonly kind: 'history'; readonly dialect: string; readonly id: string; readonly query: HistoryQuery };

/** A document, or why there is none (an HTTP status and message). */
export type Answer = { readonly doc: unknown } | { readonly status: number; readonly error: string };

/** The runs a query is answered from. */
export interface RunSource {
  all(): readonly RunView[];
  get(dialect: string, id: string): RunView | undefined;
}

/**
 * The key a query's body is kept under until its run changes (`<what>:<dialect>/<id>`; the lists, without a
 * colon, change with any run), or undefined for bodies built per request (pages of units, findings, history).
 */
export function cacheKey(q: Query): string | undefined {
  switch (q.kind) {
    case 'runs':
    case 'summaries':
      return q.kind;
    case 'run':
    case 'resume':
    case 'graph':
    case 'timeline':
      return `${q.kind}:${q.dialect}/${q.id}`;
    case 'page':
      return `page${pageUnits(q.query)}:${q.dialect}/${q.id}`;
    case 'sources':
      return q.query?.offset === undefined && q.query?.limit === undefined
        ? `sources:${q.dialect}/${q.id}`
        : undefined;
    default:
      return undefined;
  }
}

const pageUnits = (q: PageQuery | undefined) =>
  Math.max(1, Math.min(MAX_PAGE, Number.parseInt(q?.units ?? '', 10) || PAGE_UNITS));

/** Each loaded run's whole history, built once per load (a reload makes new RunViews, so old ones drop out). */
const histories = new WeakMap<RunView, HistoryDocument>();

function wholeHistory(dir: string, run: RunView): HistoryDocument {
  let h = histories.get(run);
  if (!h) {
    h = runHistory(run, projectReader(dir));
    histories.set(run, h);
  }
  return h;
}

const noRun = (q: { dialect: string; id: string }): Answer => ({
  status: 404,
  error: `no ${q.dialect} run "${q.id}"`,
});

/** Answers one query from the runs of the project in `dir`. */
export function answer(runs: RunSource, dir: string, q: Query): Answer {
  if (q.kind === 'runs') return { doc: runsDocument([...runs.all()]) };
  if (q.kind === 'summaries') return { doc: summariesDocument([...runs.all()]) };
  if (q.kind === 'listed') return { doc: runs.all().some((r) => r.sources.some((s) => s.path === q.path)) };
  const run = runs.get(q.dialect, q.id);
  if (!run) return noRun(q);
  switch (q.kind) {
    case 'run':
      return { doc: runDocument(run) };
    case 'resume':
      return { doc: resumeDocument(run) };
    case 'page':
      return { doc: pageDocument(run, pageUnits(q.query)) };
    case 'units':
      return { doc: unitsPage(run, q.query ?? {}) };
    case 'findings':
      return { doc: findingsPage(run, q.query ?? {}) };
    case 'sources':
      return { doc: sourcesDocument(run, q.query ?? {}) };
    case 'unit': {
      const doc = unitDocument(run, q.unit ?? '');
      return doc ? { doc } : { status: 404, error: `no unit "${q.unit}" in ${run.dialect} run "${run.id}"` };
    }
    case 'unitAt': {
      // triage: a unit by its index in run.units, so a unit id of any length opens (an id in the path is limited).
      const index = q.query?.index;
      const i = /^\d{1,9}$/.test(index ?? '') ? Number(index) : -1;
      const unit = run.units[i];
      return unit
        ? { doc: { formatVersion: RUN_VIEW_FORMAT_VERSION, unit } }
        : { status: 404, error: `no unit at index ${index ?? '(none)'} in ${run.dialect} run "${run.id}"` };
    }
    case 'graph':
      return { doc: runGraph(run) };
    case 'timeline':
      return { doc: runTimeline(run, projectReader(dir)) };
    case 'history':
      return historyPage(dir, run, q.query);
  }
}

/** `/history`: every event oldest first, or one unit's (by index), some kinds, a page of them. */
function historyPage(dir: string, run: RunView, q: HistoryQuery): Answer {
  let unit: string | undefined;
  if (q.unit !== undefined) {
    // Units are addressed by index: an id may be any length (and any text).
    const i = /^\d{1,9}$/.test(q.unit) ? Number(q.unit) : -1;
    unit = run.units[i]?.id;
    if (unit === undefined)
      return { status: 404, error: `no unit #${q.unit} in ${run.dialect} run "${run.id}"` };
  }
  let kinds: HistoryKind[] | undefined;
  if (q.kinds !== undefined && q.kinds !== '') {
    const list = q.kinds.split(',');
    const bad = list.filter((k) => !isHistoryKind(k));
    if (bad.length > 0) return { status: 400, error: `unknown kind(s): ${bad.join(', ')}` };
    kinds = list as HistoryKind[];
  }
  const num = (v: string | undefined) => (v !== undefined && /^\d{1,9}$/.test(v) ? Number(v) : undefined);
  const offset = num(q.offset) ?? 0;
  const limit = num(q.limit);
  if (
    (q.offset !== undefined && num(q.offset) === undefined) ||
    (q.limit !== undefined && limit === undefined)
  )
    return { status: 400, error: 'offset and limit are whole numbers' };
  const opts = { ...(unit !== undefined ? { unit } : {}), ...(kinds ? { kinds } : {}) };
  // A team task's files are its own: one task reads only them; other dialects filter the run's history.
  const doc =
    unit !== undefined && run.dialect === 'team' && !histories.has(run)
      ? runHistory(run, projectReader(dir), opts)
      : filterHistory(wholeHistory(dir, run), opts);
  // A page of the entries (a run-level history can hold 100,000): `total` counts them all.
  return {
    doc:
      offset > 0 || limit !== undefined
        ? {
            ...doc,
            total: doc.entries.length,
            offset,
            entries: doc.entries.slice(offset, offset + (limit ?? doc.entries.length)),
          }
        : { ...doc, total: doc.entries.length, offset: 0 },
  };
}

/**
 * A JSON body with the entity tag of its text: the text, or (for a client that accepts an encoding, a body of
 * `COMPRESS_THRESHOLD` bytes or more) its bytes in that encoding.
 */
export type CachedBody =
  | { readonly body: string; readonly etag: string }
  | { readonly encoded: Uint8Array; readonly encoding: Encoding; readonly etag: string };

/** Serialises a document once, with the entity tag of its bytes; compressed in `encoding` when one is given. */
export function serialise(doc: unknown, encoding?: Encoding): CachedBody {
  const body = JSON.stringify(doc);
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  if (!encoding || Buffer.byteLength(body) < COMPRESS_THRESHOLD) return { body, etag };
  // A copy of exactly the compressed bytes: zlib's result may be a view of a larger buffer, and this one moves to
  // the server thread without a copy (load-worker.ts transfers it).
  return { encoded: new Uint8Array(compress(body, encoding)), encoding, etag };
}

/** A body to send, or why there is none (an HTTP status and message). */
export type Reply = CachedBody | { readonly status: number; readonly error: string };

/** Runs by key, for answering queries where they were loaded. */
export class RunTable {
  private list: readonly RunView[] = [];
  private byKey = new Map<string, RunView>();

  set(runs: readonly RunView[]): void {
    this.list = runs;
    this.byKey = new Map(runs.map((r) => [`${r.dialect}/${r.id}`, r]));
  }

  all(): readonly RunView[] {
    return this.list;
  }

  get(dialect: string, id: string): RunView | undefined {
    return lookupRun(this.byKey, this.list, dialect, id);
  }
}

/** An answer as a body to send (serialised with its entity tag, compressed in `encoding` if given) or an error. */
export function reply(a: Answer, encoding?: Encoding): Reply {
  return 'doc' in a ? serialise(a.doc, encoding) : a;
}
