import { createRequire } from 'node:module';
import { type CheckOptions, checkEntry, formatOf, pickEntry } from '../check/check-document.js';
import { documentOf, type SentRecord, withRef } from '../check/records.js';
import type { CheckedDocument } from '../dialects/dialect.js';
import {
  adoptTaskGroup,
  foldTaskGroup,
  type TaskGroupFold,
  type TaskGroupWire,
  taskGroupFromWire,
  taskGroupWire,
} from '../dialects/team/fold.js';
import { type PoolOptions, type PoolTask, poolMap, poolThreads } from '../pool/pool.js';
import { redactSecretsIn } from '../text/secrets.js';
import { keepRedactedUnit } from './redact-view.js';
import type { UnitView } from './run-view.js';

// Loaded by the pool already when this task runs (never for a load that reads on one thread).
const load = createRequire(import.meta.url);

/** The documents to read ahead, flat (one string per column) so that it is cheap to copy to a worker. */
export interface PrefetchInput {
  /** Absolute paths, one per line. */
  readonly paths: string;
  /** Display paths, one per line. */
  readonly files: string;
  readonly confineTo: string | undefined;
  /** One character per path: `1` when the directory listing saw a regular file there (no fstat needed). */
  readonly regular: string;
  /**
   * The groups the paths come in, each the paths up to (not including) its end index; the items the pool hands
   * out. Absent: each path is a group of its own.
   */
  readonly ends?: readonly number[];
  /** One character per group: `1` for the event documents of one task (folded: dialects/team/fold.ts). */
  readonly fold?: string;
  /** Redact the unit views of folded tasks too (view/redact-view.ts), for a load that redacts. */
  readonly redact?: boolean;
}

/** What the pool returns for one group: each document (in path order) as sent, and the fold of a task's events. */
export interface PrefetchedGroup {
  readonly docs: readonly SentRecord[];
  readonly fold?: TaskGroupFold;
  /** With `redact`: for each task of `fold`, `redactSecretsIn` of its unit (the unit itself when it holds none). */
  readonly redacted?: readonly UnitView[];
}

/** A folded group as a worker thread sends it: one JSON text of `WireGroup` (cheap to copy and parse). */
interface SentGroup {
  readonly wire: string;
}

/** What a worker's JSON text holds: the documents, the fold by index, and only the units redaction changed. */
interface WireGroup {
  readonly docs: readonly SentRecord[];
  readonly fold: TaskGroupWire;
  /** Per task: its redacted unit when redaction changed it, else 0. */
  readonly redacted?: readonly (UnitView | 0)[];
}

/**
 * Reads, parses and checks documents as the project index's context would (`checkDocument` with `sniff`), and
 * sends each whole but for its text and source map: positions are found again from the file when a rule places
 * a finding (`documentOf`). For the team dialect only, whose loaders read values and findings, never texts. The
 * event documents of one task (a group with `fold`) are derived on the reading thread too: their records, task
 * and unit view (dialects/team/fold.ts); such a document is then sent without its value, which only its record
 * was made from (a document unfit for state keeps it).
 */
export const viewDocumentsTask: PoolTask<PrefetchInput, PrefetchedGroup | SentGroup> = {
  name: 'view-documents',
  start(input) {
    const paths = input.paths.split('\n');
    const files = input.files.split('\n');
    const opts: CheckOptions = {
      sniff: true,
      ...(input.confineTo !== undefined ? { confineTo: input.confineTo } : {}),
    };
    const listed: CheckOptions = { ...opts, listedAsFile: true };
    // Results made on the calling thread are not copied: they stay objects; a worker's become a JSON text.
    const onMainThread = (load('node:worker_threads') as typeof import('node:worker_threads')).isMainThread;
    /** The document at `paths[i]` and the format to find its positions again with (none without a source map). */
    const read = (i: number): { doc: CheckedDocument; remap: SentRecord['remap'] } => {
      const path = paths[i]!;
      const file = files[i]!;
      const how = input.regular[i] === '1' ? listed : opts;
      const entry = pickEntry(path, how);
      const doc = checkEntry(path, file, how, entry);
      if (!doc)
        return {
          doc: {
            path,
            file,
            kind: undefined,
            text: undefined,
            value: undefined,
            usable: false,
            findings: [],
            sourceMap: undefined,
          },
          remap: undefined,
        };
      return { doc, remap: doc.sourceMap ? formatOf(path, entry) : undefined };
    };
    const sent = (d: CheckedDocument, remap: SentRecord['remap'], keepValue: boolean): SentRecord => ({
      kind: d.kind,
      text: undefined,
      value: keepValue ? d.value : undefined,
      usable: d.usable,
      findings: d.findings,
      remap,
    });
    return (from, to) => {
      const out: (PrefetchedGroup | SentGroup)[] = [];
      for (let g = from; g < to; g++) {
        const first = input.ends ? (g === 0 ? 0 : input.ends[g - 1]!) : g;
        const end = input.ends ? input.ends[g]! : g + 1;
        const got: { doc: CheckedDocument; remap: SentRecord['remap'] }[] = [];
        for (let i = first; i < end; i++) got.push(read(i));
        if (input.fold?.[g] !== '1') {
          out.push({ docs: got.map((x) => sent(x.doc, x.remap, true)) });
          continue;
        }
        const fold = foldTaskGroup(got.map((x) => x.doc));
        const docs = got.map((x, i) => sent(x.doc, x.remap, fold.records[i] === null));
        const redacted = input.redact ? fold.tasks.map((t) => redactSecretsIn(t.view.unit)) : undefined;
        if (onMainThread) {
          out.push({ docs, fold, ...(redacted ? { redacted } : {}) });
          continue;
        }
        const wire: WireGroup = {
          docs,
          fold: taskGroupWire(fold),
          ...(redacted ? { redacted: redacted.map((r, i) => (r === fold.tasks[i]!.view.unit ? 0 : r)) } : {}),
        };
        out.push({ wire: JSON.stringify(wire) });
      }
      return out;
    };
  },
};

/**
 * Reads `paths` ahead on the worker pool when there are enough of them to pay for it; undefined otherwise (the
 * loader then reads each document itself, on this thread). `listedAsFile[i]`: the directory listing saw a regular
 * file at `paths[i]` (its read skips an fstat; fs/read-checkpoint.ts). `groups`: the paths come in groups, each
 * up to (not including) its `ends` index; a group marked in `fold` holds the event documents of one task (by
 * their names), which the reading thread derives as far as the task's unit view (dialects/team/fold.ts); what it
 * derived is kept here for the loader.
 */
export function prefetchDocuments(
  paths: readonly string[],
  display: (abs: string) => string,
  confineTo: string | undefined,
  pool: PoolOptions = {},
  listedAsFile: readonly boolean[] = [],
  groups?: { readonly ends: readonly number[]; readonly fold: readonly boolean[]; readonly redact?: boolean },
): CheckedDocument[] | undefined {
  const threads = poolThreads(paths.length, pool);
  if (threads <= 1 || paths.some((p) => p.includes('\n'))) return undefined;
  const files = paths.map(display);
  const input: PrefetchInput = {
    paths: paths.join('\n'),
    files: files.join('\n'),
    confineTo,
    regular: paths.map((_, i) => (listedAsFile[i] ? '1' : '0')).join(''),
    ...(groups
      ? {
          ends: groups.ends,
          fold: groups.fold.map((f) => (f ? '1' : '0')).join(''),
          redact: groups.redact === true,
        }
      : {}),
  };
  const count = groups ? groups.ends.length : paths.length;
  // Sized by documents, not groups: a group is a task's few events.
  const got = poolMap(viewDocumentsTask, input, count, { ...pool, threads, minItemsPerThread: 1 });
  const out: CheckedDocument[] = [];
  const kept = (sent: readonly SentRecord[]) =>
    sent.map((d, i) => {
      const at = out.length + i;
      return documentOf(withRef(d, { path: paths[at]!, file: files[at]! }));
    });
  for (const g of got) {
    let docs: CheckedDocument[];
    if ('wire' in g) {
      const w = JSON.parse(g.wire) as WireGroup;
      docs = kept(w.docs);
      const fold = taskGroupFromWire(w.fold, docs);
      adoptTaskGroup(docs, fold);
      w.redacted?.forEach((r, i) => {
        const unit = fold.tasks[i]!.view.unit;
        keepRedactedUnit(unit, r === 0 ? unit : r);
      });
    } else {
      docs = kept(g.docs);
      if (g.fold) {
        adoptTaskGroup(docs, g.fold);
        g.redacted?.forEach((r, i) => keepRedactedUnit(g.fold!.tasks[i]!.view.unit, r));
      }
    }
    for (const d of docs) out.push(d);
  }
  return out;
}
