import { sep } from 'node:path';
import { type CheckOptions, checkEntry, formatOf, pickEntry } from '../check/check-document.js';
import { documentOf, type SentRecord, withRef } from '../check/records.js';
import type { CheckedDocument } from '../dialects/dialect.js';
import { teamDocumentNames } from '../dialects/team/load.js';
import { eventStateValue } from '../dialects/team/records.js';
import type { Finding } from '../findings/finding.js';
import {
  type PoolAhead,
  type PoolOptions,
  type PoolTask,
  poolAhead,
  poolAheadCancel,
  poolChunks,
  poolThreads,
} from '../pool/pool.js';
import { displayInFolder } from './display.js';
import { SharedStrings } from './shared-strings.js';

const NONE: readonly Finding[] = Object.freeze([]);

/**
 * What a thread reads ahead, and how it finds the documents. Flat (a few strings) so that it is cheap to copy to a
 * worker: either the list itself by folder (each folder's path once and the names in it: half the characters of
 * whole paths for 100k event files), or a team root (`teamRoot`) whose documents the worker lists itself
 * (`teamDocumentNames`), or, on this thread only, the list as it is (`list`).
 */
export type PrefetchInput = {
  /** The directory paths are shown relative to (`displayUnder`): each thread makes the display paths itself. */
  readonly displayDir: string;
  readonly confineTo: string | undefined;
  /**
   * Task events keep only the members a run's state is derived from (`eventStateValue`): for a load whose runs
   * are only summarized. Less for a worker to send and for this thread to keep.
   */
  readonly eventState?: boolean;
} & (
  | {
      /** The folders' absolute paths, one per line, in reading order. */
      readonly folders: string;
      /** How many documents of each folder, comma-separated. */
      readonly counts: string;
      /** The documents' names in their folders, one per line, in reading order. */
      readonly names: string;
      /** One character per document: `1` when the directory listing saw a regular file there (no fstat needed). */
      readonly regular: string;
    }
  | { readonly teamRoot: string }
  | { readonly list: PrefetchList }
);

/** The documents to read ahead: `paths[i]` is `dirs[i]`, a separator and `names[i]` (one `dirs` string per folder). */
export interface PrefetchList {
  readonly paths: readonly string[];
  readonly dirs: readonly string[];
  readonly names: readonly string[];
  /** Whether the directory listing saw a regular file at `paths[i]` (its read then skips an fstat). */
  readonly listedAsFile: readonly boolean[];
}

/**
 * A record read by a worker that listed a team root itself: which document it is, its name and (on a chunk's
 * first record and where the folder changes) its folder, so that a folder that changed between its listing and
 * this thread's is caught.
 */
type ListedRecord = SentRecord & { name?: string; dir?: string };

const withSep = (dir: string) => (dir.endsWith(sep) ? dir : dir + sep);

/**
 * Each document's folder (with a separator at the end) and how names show in it (`displayInFolder`), made again
 * only when the folder is not the last one asked for: documents come folder by folder, and no array of 100k
 * entries is made for them before the first read.
 */
function folderOf(displayDir: string): (dir: string) => { base: string; show: (name: string) => string } {
  let last: string | undefined;
  let folder = { base: '', show: (name: string) => name };
  return (dir) => {
    if (dir !== last) {
      last = dir;
      folder = { base: withSep(dir), show: displayInFolder(displayDir, dir) };
    }
    return folder;
  };
}

/** The list an input gives (`PrefetchInput`); `paths` are made by the reader (`folderOf`), empty here. */
function listOf(input: PrefetchInput): Omit<PrefetchList, 'paths'> {
  if ('list' in input) return input.list;
  if ('teamRoot' in input) return teamDocumentNames(input.teamRoot, input.confineTo);
  const counts = input.counts.split(',').map(Number);
  const folders = input.folders.split('\n');
  const dirs: string[] = [];
  for (let f = 0; f < folders.length; f++) for (let k = 0; k < counts[f]!; k++) dirs.push(folders[f]!);
  return { dirs, names: input.names.split('\n'), listedAsFile: [...input.regular].map((c) => c === '1') };
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
    const { dirs, names, listedAsFile } = listOf(input);
    const at = folderOf(input.displayDir);
    // Listed here: each record says which document it is.
    const named = 'teamRoot' in input;
    const opts: CheckOptions = {
      sniff: true,
      ...(input.confineTo !== undefined ? { confineTo: input.confineTo } : {}),
    };
    const listed: CheckOptions = { ...opts, listedAsFile: true };
    const cut = input.eventState === true;
    return (from, to) => {
      const out: SentRecord[] = [];
      for (let i = from; i < Math.min(to, names.length); i++) {
        const name = names[i]!;
        const folder = at(dirs[i]!);
        const path = folder.base + name;
        const how = listedAsFile[i] ? listed : opts;
        const entry = pickEntry(path, how);
        const doc = checkEntry(path, folder.show(name), how, entry);
        const rec: ListedRecord = {
          kind: doc?.kind,
          text: undefined,
          value: cut && doc?.kind === 'team/task-event' ? eventStateValue(doc.value) : doc?.value,
          usable: doc?.usable ?? false,
          findings: doc?.findings ?? [],
          remap: doc?.sourceMap ? formatOf(path, entry) : undefined,
        };
        if (named) {
          rec.name = name;
          if (i === from || dirs[i] !== dirs[i - 1]) rec.dir = dirs[i];
        }
        out.push(rec);
      }
      return out;
    };
  },
};

/**
 * Starts reading a team root's documents on the worker pool before this thread has listed them: the workers list
 * the root themselves (`teamDocumentNames`) while this thread does. `prefetchDocuments(..., ahead)` takes the job
 * over (it stops the workers when it does not use them; give it the same `eventState`). Undefined when no worker
 * can start. `eventState`: see `PrefetchInput`.
 */
export function prefetchTeamRoot(
  teamRoot: string,
  displayDir: string,
  confineTo: string | undefined,
  pool: PoolOptions = {},
  eventState = false,
): PoolAhead | undefined {
  return poolAhead(viewDocumentsTask, { teamRoot, displayDir, confineTo, eventState }, pool.threads, pool);
}

/**
 * Reads `list`'s documents ahead on the worker pool when there are enough of them to pay for it; undefined
 * otherwise (the loader then reads each document itself, on this thread). Paths show relative to `displayDir`
 * (`displayUnder`). Each document is also put `into` the map (by path) as its chunk comes in.
 *
 * What this thread does before the workers can start is kept short (they wait for it): the input is each folder
 * once and the names in it (not 100k whole paths), and the display paths are made by each thread for the documents
 * it reads (and here as each chunk comes in). With `ahead` (`prefetchTeamRoot`, `list` being that root's
 * `teamDocumentPaths`) the workers started before: each document they read whose folder or name is not the one
 * `list` has at its place (the folder changed between the two listings) is read again here. `eventState`: see
 * `PrefetchInput`.
 */
export function prefetchDocuments(
  list: PrefetchList,
  displayDir: string,
  confineTo: string | undefined,
  pool: PoolOptions = {},
  into?: Map<string, CheckedDocument>,
  ahead?: PoolAhead,
  eventState = false,
): CheckedDocument[] | undefined {
  const { paths, dirs, names, listedAsFile } = list;
  let input: PrefetchInput;
  if (ahead) input = { list, displayDir, confineTo, eventState };
  else if (poolThreads(paths.length, pool) > 1 && !names.some((n) => n.includes('\n'))) {
    const folders: string[] = [];
    const counts: number[] = [];
    for (let i = 0; i < dirs.length; i++) {
      if (folders.length > 0 && dirs[i] === folders[folders.length - 1]) counts[counts.length - 1]!++;
      else {
        folders.push(dirs[i]!);
        counts.push(1);
      }
    }
    if (folders.some((f) => f.includes('\n'))) return undefined;
    input = {
      folders: folders.join('\n'),
      counts: counts.join(','),
      names: names.join('\n'),
      displayDir,
      confineTo,
      eventState,
      regular: listedAsFile.map((f) => (f ? '1' : '0')).join(''),
    };
  } else return undefined;
  if (poolThreads(paths.length, pool) <= 1) {
    poolAheadCancel(ahead!);
    return undefined;
  }
  // This thread's display paths, folder by folder, in the order the chunks come.
  const at = folderOf(displayDir);
  // Documents a worker listed itself, not those of this list: read here (`mine`).
  let mine: ((from: number, to: number) => SentRecord[]) | undefined;
  let folder: string | undefined;
  // Each chunk is taken in as it comes, while the workers read on.
  const out: CheckedDocument[] = [];
  // The strings the documents repeat (run id, stage, kind...) are kept once, not once per document.
  const strings = new SharedStrings();
  for (const chunk of poolChunks(viewDocumentsTask, input, paths.length, { ...pool, ahead }))
    for (let rec of chunk as ListedRecord[]) {
      const i = out.length;
      if (rec.name !== undefined) {
        if (rec.dir !== undefined) folder = rec.dir;
        if (folder !== dirs[i] || rec.name !== names[i]) {
          mine ??= viewDocumentsTask.start({ list, displayDir, confineTo, eventState });
          rec = mine(i, i + 1)[0]!;
        }
      }
      // Most documents have no finding: they share one empty list instead of one copied each.
      if (rec.findings.length === 0) (rec as { findings: readonly Finding[] }).findings = NONE;
      (rec as { kind: string | undefined }).kind = strings.kind(rec.kind);
      strings.share(rec.value);
      const path = paths[i]!;
      const doc = documentOf(withRef(rec, { path, file: at(dirs[i]!).show(names[i]!) }));
      out.push(doc);
      into?.set(path, doc);
    }
  return out;
}
