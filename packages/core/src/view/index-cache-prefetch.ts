import { sep } from 'node:path';
import { type CheckOptions, checkEntry, formatOf, pickEntry } from '../check/check-document.js';
import { documentOf, type SentRecord, withRef } from '../check/records.js';
import type { CheckedDocument } from '../dialects/dialect.js';
import type { Finding } from '../findings/finding.js';
import { type PoolOptions, type PoolTask, poolChunks, poolThreads } from '../pool/pool.js';
import { displayInFolder } from './display.js';

const NONE: readonly Finding[] = Object.freeze([]);

/**
 * The documents to read ahead, flat (a few strings) so that it is cheap to copy to a worker: by folder, each
 * folder's path once and the names in it (half the characters of whole paths for 100k event files).
 */
export interface PrefetchInput {
  /** The folders' absolute paths, one per line, in reading order. */
  readonly folders: string;
  /** How many documents of each folder, comma-separated. */
  readonly counts: string;
  /** The documents' names in their folders, one per line, in reading order. */
  readonly names: string;
  /** The directory paths are shown relative to (`displayUnder`): each thread makes the display paths itself. */
  readonly displayDir: string;
  readonly confineTo: string | undefined;
  /** One character per document: `1` when the directory listing saw a regular file there (no fstat needed). */
  readonly regular: string;
}

/** The documents to read ahead: `paths[i]` is `dirs[i]`, a separator and `names[i]` (one `dirs` string per folder). */
export interface PrefetchList {
  readonly paths: readonly string[];
  readonly dirs: readonly string[];
  readonly names: readonly string[];
  /** Whether the directory listing saw a regular file at `paths[i]` (its read then skips an fstat). */
  readonly listedAsFile: readonly boolean[];
}

const withSep = (dir: string) => (dir.endsWith(sep) ? dir : dir + sep);

/**
 * Calls `each(base, show)` for each folder of `input` in order, `count` times: its path with a separator at the end
 * and how its documents' names show (`displayInFolder`).
 */
function eachFolder(
  folders: readonly string[],
  counts: readonly number[],
  displayDir: string,
  each: (base: string, show: (name: string) => string, count: number) => void,
): void {
  for (let f = 0; f < folders.length; f++)
    each(withSep(folders[f]!), displayInFolder(displayDir, folders[f]!), counts[f]!);
}

/**
 * Reads, parses and checks documents as the project index's context would (`checkDocument` with `sniff`), and
 * sends each whole but for its text and source map: positions are found again from the file when a rule places
 * a finding (`documentOf`). For the team dialect only, whose loaders read values and findings, never texts. Not
 * its paths either: the receiver has them (`withRef`).
 */
export const viewDocumentsTask: PoolTask<PrefetchInput, SentRecord> = {
  name: 'view-documents',
  start(input) {
    const names = input.names.split('\n');
    const paths = new Array<string>(names.length);
    const files = new Array<(name: string) => string>(names.length);
    let at = 0;
    eachFolder(
      input.folders.split('\n'),
      input.counts.split(',').map(Number),
      input.displayDir,
      (base, show, n) => {
        for (const end = at + n; at < end; at++) {
          paths[at] = base + names[at]!;
          files[at] = show;
        }
      },
    );
    const opts: CheckOptions = {
      sniff: true,
      ...(input.confineTo !== undefined ? { confineTo: input.confineTo } : {}),
    };
    const listed: CheckOptions = { ...opts, listedAsFile: true };
    return (from, to) => {
      const out: SentRecord[] = [];
      for (let i = from; i < to; i++) {
        const path = paths[i]!;
        const file = files[i]!(names[i]!);
        const how = input.regular[i] === '1' ? listed : opts;
        const entry = pickEntry(path, how);
        const doc = checkEntry(path, file, how, entry);
        out.push({
          kind: doc?.kind,
          text: undefined,
          value: doc?.value,
          usable: doc?.usable ?? false,
          findings: doc?.findings ?? [],
          remap: doc?.sourceMap ? formatOf(path, entry) : undefined,
        });
      }
      return out;
    };
  },
};

/**
 * Reads `list`'s documents ahead on the worker pool when there are enough of them to pay for it; undefined
 * otherwise (the loader then reads each document itself, on this thread). Paths show relative to `displayDir`
 * (`displayUnder`). Each document is also put `into` the map (by path) as its chunk comes in.
 *
 * What this thread does before the workers can start is kept short (they wait for it): the input is each folder
 * once and the names in it (not 100k whole paths), and the display paths are made by each thread for the documents
 * it reads (and here as each chunk comes in).
 */
export function prefetchDocuments(
  list: PrefetchList,
  displayDir: string,
  confineTo: string | undefined,
  pool: PoolOptions = {},
  into?: Map<string, CheckedDocument>,
): CheckedDocument[] | undefined {
  const { paths, dirs, names, listedAsFile } = list;
  if (poolThreads(paths.length, pool) <= 1) return undefined;
  const folders: string[] = [];
  const counts: number[] = [];
  for (let i = 0; i < dirs.length; i++) {
    if (folders.length > 0 && dirs[i] === folders[folders.length - 1]) counts[counts.length - 1]!++;
    else {
      folders.push(dirs[i]!);
      counts.push(1);
    }
  }
  if (folders.some((f) => f.includes('\n')) || names.some((n) => n.includes('\n'))) return undefined;
  const input: PrefetchInput = {
    folders: folders.join('\n'),
    counts: counts.join(','),
    names: names.join('\n'),
    displayDir,
    confineTo,
    regular: listedAsFile.map((f) => (f ? '1' : '0')).join(''),
  };
  // This thread's display paths, folder by folder, in the order the chunks come.
  const shows: ((name: string) => string)[] = [];
  eachFolder(folders, counts, displayDir, (_, show, n) => {
    for (let k = 0; k < n; k++) shows.push(show);
  });
  // Each chunk is taken in as it comes, while the workers read on.
  const out: CheckedDocument[] = [];
  for (const chunk of poolChunks(viewDocumentsTask, input, paths.length, pool))
    for (const rec of chunk) {
      // Most documents have no finding: they share one empty list instead of one copied each.
      if (rec.findings.length === 0) (rec as { findings: readonly Finding[] }).findings = NONE;
      const i = out.length;
      const path = paths[i]!;
      const doc = documentOf(withRef(rec, { path, file: shows[i]!(names[i]!) }));
      out.push(doc);
      into?.set(path, doc);
    }
  return out;
}
