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
  /**
   * Records of plain task events go as the JSON text of their values (`packed`), not as objects: for workers whose
   * records `prefetchDocuments` unpacks (`unpacked`), never for this thread's own chunks.
   */
  readonly pack?: boolean;
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
  | {
      readonly teamRoot: string;
      /**
       * Where this thread puts its own listing of the root once it has made it (`giveListing`): the worker waits
       * for it (up to `listWait` ms) instead of listing the 100k-entry events folder a second time.
       */
      readonly listing?: SharedArrayBuffer;
      readonly listWait?: number;
    }
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

/** A list as one thread gives it to another: four strings (see `PrefetchInput`'s first form). */
interface FlatList {
  readonly folders: string;
  readonly counts: string;
  readonly names: string;
  readonly regular: string;
}

/** A list's folders in order, each with how many documents in a row are in it (`dirs` run-length encoded). */
function folderRuns(dirs: readonly string[]): [string, number][] {
  const runs: [string, number][] = [];
  let last: [string, number] | undefined;
  for (const dir of dirs) {
    if (last !== undefined && dir === last[0]) last[1]++;
    else {
      last = [dir, 1];
      runs.push(last);
    }
  }
  return runs;
}

/** The `dirs` of a list whose folders `folderRuns` gave. */
function dirsOf(runs: readonly (readonly [string, number])[]): string[] {
  let dirs: string[] = [];
  for (const [folder, n] of runs) dirs = dirs.concat(new Array<string>(n).fill(folder));
  return dirs;
}

/** The flat form of a list; undefined when a folder or a name holds a newline (the separator). */
function flatOf(list: Omit<PrefetchList, 'paths'>): FlatList | undefined {
  const { dirs, names, listedAsFile } = list;
  if (names.some((n) => n.includes('\n'))) return undefined;
  const runs = folderRuns(dirs);
  if (runs.some(([f]) => f.includes('\n'))) return undefined;
  return {
    folders: runs.map(([f]) => f).join('\n'),
    counts: runs.map(([, n]) => n).join(','),
    names: names.join('\n'),
    regular: listedAsFile.map((f) => (f ? '1' : '0')).join(''),
  };
}

/** The list a flat form holds. */
function unflat(input: FlatList): Omit<PrefetchList, 'paths'> {
  const counts = input.counts.split(',').map(Number);
  const dirs = dirsOf(input.folders.split('\n').map((f, i) => [f, counts[i]!] as const));
  return { dirs, names: input.names.split('\n'), listedAsFile: [...input.regular].map((c) => c === '1') };
}

/**
 * The slot a team root's listing is given in (`PrefetchInput.listing`). Growable: nothing is committed until the
 * listing is known, and only what it takes is ever touched. After the Int32 head (`SLOT_*`): one byte per document
 * (1: the listing saw a regular file there), padded to 4; for each block of `BLOCK` names, the byte offset past its
 * text and 1 when it is latin1 (two Int32); the folders and their document counts (JSON); then the blocks, each
 * its names joined by newlines (latin1 when all are ASCII, else UTF-8; no name holds a newline). Small blocks: the
 * worker reads while this thread writes the next ones, and no text of the whole list is made on either thread.
 */
const SLOT_STATE = 0;
const SLOT_COUNT = 1;
const SLOT_FOLDERS = 2;
/** How many blocks of names are written so far. */
const SLOT_BLOCKS = 3;
const SLOT_HEAD = 16;
const BLOCK = 1024;
const SLOT_MOST = 256 * 1024 * 1024;
const WAITING = 0;
const GIVEN = 1;
const NOT_GIVEN = 2;
/** The worker took the listing given (tests: it did not list the root itself). */
const TAKEN = 3;
/** How long a worker waits for this thread's listing (or its next block) before it does without. */
const LIST_WAIT_MS = 10_000;

/** Where the parts of a slot holding `count` documents start. */
function slotParts(count: number) {
  const table = SLOT_HEAD + Math.ceil(count / 4) * 4;
  const blocks = Math.ceil(count / BLOCK);
  return { blocks, table, folders: table + 8 * blocks };
}

type GrowableSharedArrayBuffer = SharedArrayBuffer & {
  readonly maxByteLength: number;
  grow(length: number): void;
};

const newSlot = (): SharedArrayBuffer =>
  new (
    SharedArrayBuffer as unknown as new (
      length: number,
      opts: { maxByteLength: number },
    ) => SharedArrayBuffer
  )(SLOT_HEAD, { maxByteLength: SLOT_MOST });

/** Tells the worker waiting in `slot` that no listing comes: it lists the root itself. */
function giveNoListing(head: Int32Array): void {
  Atomics.compareExchange(head, SLOT_STATE, WAITING, NOT_GIVEN);
  Atomics.notify(head, SLOT_STATE);
}

/** Gives this thread's listing to the worker waiting in `slot` (or tells it to list the root itself: no `list`). */
function giveListing(slot: SharedArrayBuffer, list: Omit<PrefetchList, 'paths'> | undefined): void {
  const head = new Int32Array(slot, 0, SLOT_HEAD / 4);
  if (Atomics.load(head, SLOT_STATE) !== WAITING) return;
  const count = list?.names.length ?? 0;
  if (count === 0) {
    giveNoListing(head);
    return;
  }
  const { dirs, names, listedAsFile } = list!;
  const parts = slotParts(count);
  const folders = folderRuns(dirs);
  let chars = 0;
  // Its bytes go into the slot once it is large enough: kept here meanwhile.
  const regular = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const name = names[i]!;
    if (name.includes('\n')) {
      giveNoListing(head);
      return;
    }
    chars += name.length + 1;
    if (listedAsFile[i]) regular[i] = 1;
  }
  const foldersText = JSON.stringify(folders);
  // At most 3 bytes of UTF-8 per UTF-16 unit.
  const most = parts.folders + 3 * (foldersText.length + chars);
  if (most > SLOT_MOST) {
    giveNoListing(head);
    return;
  }
  const g = slot as GrowableSharedArrayBuffer;
  if (g.byteLength < most) g.grow(most);
  const bytes = Buffer.from(slot, 0, most);
  bytes.set(regular, SLOT_HEAD);
  const table = new Int32Array(slot, parts.table, 2 * parts.blocks);
  head[SLOT_FOLDERS] = bytes.write(foldersText, parts.folders, 'utf8');
  head[SLOT_COUNT] = count;
  // A worker that stopped waiting meanwhile lists the root itself.
  if (Atomics.compareExchange(head, SLOT_STATE, WAITING, GIVEN) !== WAITING) return;
  Atomics.notify(head, SLOT_STATE);
  let offset = parts.folders + head[SLOT_FOLDERS]!;
  for (let k = 0; k < parts.blocks; k++) {
    const text = names.slice(k * BLOCK, Math.min(count, (k + 1) * BLOCK)).join('\n');
    const ascii = Buffer.byteLength(text, 'utf8') === text.length;
    offset += bytes.write(text, offset, ascii ? 'latin1' : 'utf8');
    table[2 * k] = offset;
    table[2 * k + 1] = ascii ? 1 : 0;
    Atomics.store(head, SLOT_BLOCKS, k + 1);
    Atomics.notify(head, SLOT_BLOCKS);
  }
}

/**
 * The listing given in `slot` (`giveListing`), waiting up to `wait` ms for it; undefined when none comes. Its
 * names come block by block: `need(to)` waits until the first `to` are in (fewer when no more come in time).
 */
function takeListing(
  slot: SharedArrayBuffer,
  wait: number,
): (Omit<PrefetchList, 'paths'> & { readonly need: (to: number) => void }) | undefined {
  const head = new Int32Array(slot, 0, SLOT_HEAD / 4);
  Atomics.wait(head, SLOT_STATE, WAITING, wait);
  // Given or not meanwhile, a worker that stops waiting lists the root itself, and this thread's listing is
  // then left as it is.
  if (Atomics.compareExchange(head, SLOT_STATE, GIVEN, TAKEN) !== GIVEN) {
    Atomics.compareExchange(head, SLOT_STATE, WAITING, NOT_GIVEN);
    return undefined;
  }
  const count = head[SLOT_COUNT]!;
  const parts = slotParts(count);
  const bytes = Buffer.from(slot, 0, slot.byteLength);
  const table = new Int32Array(slot, parts.table, 2 * parts.blocks);
  const start = parts.folders + head[SLOT_FOLDERS]!;
  const folders = JSON.parse(bytes.toString('utf8', parts.folders, start)) as [string, number][];
  const dirs = dirsOf(folders);
  const listedAsFile = new Array<boolean>(count);
  for (let i = 0; i < count; i++) listedAsFile[i] = bytes[SLOT_HEAD + i] === 1;
  const names: string[] = [];
  let blocks = 0;
  let done = dirs.length !== count;
  const need = (to: number) => {
    while (!done && names.length < to) {
      if (Atomics.load(head, SLOT_BLOCKS) === blocks) {
        // None in time: the names so far are all this worker reads (this thread reads the rest).
        if (Atomics.wait(head, SLOT_BLOCKS, blocks, wait) === 'timed-out') done = true;
        continue;
      }
      const k = blocks++;
      const from = k === 0 ? start : table[2 * k - 2]!;
      const text = bytes.toString(table[2 * k + 1] === 1 ? 'latin1' : 'utf8', from, table[2 * k]);
      const block = text.split('\n');
      if (block.length !== Math.min(count, (k + 1) * BLOCK) - names.length) done = true;
      else for (const name of block) names.push(name);
      if (names.length === count) done = true;
    }
  };
  return { dirs, names, listedAsFile, need };
}

/** The kind of the records a worker may send packed (`packed`). */
const TASK_EVENT = 'team/task-event';

/**
 * Whether `v` comes back the same from `JSON.parse(JSON.stringify(v))` as from a structured clone: strings,
 * booleans, null, finite numbers other than -0, dense arrays and plain objects of those (at most `depth` deep).
 * A parsed document's value always is, but for a number out of range (Infinity) or -0.
 */
function plainJson(v: unknown, depth: number): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0);
    case 'object': {
      if (v === null) return true;
      if (depth === 0) return false;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!(i in v) || !plainJson(v[i], depth - 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return false;
      // A parsed value's members are data properties (no getter to call).
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) if (!plainJson(o[k], depth - 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

/**
 * Whether a worker sends a record packed: a usable task event without findings, read from a `.json` file, whose value
 * JSON text carries (`plainJson`). The values of a chunk's packed records go as one JSON text (a structured clone of
 * the records' objects cost each thread ~2 us a record; one `JSON.stringify` call ~1 us of its own, the text of a
 * whole chunk ~0.4 us a record), in the place of the first of them; the others' places hold 0 (`PackedChunk`).
 */
const packable = (rec: SentRecord): boolean =>
  rec.kind === TASK_EVENT &&
  rec.usable &&
  rec.findings.length === 0 &&
  rec.text === undefined &&
  rec.remap === 'json' &&
  plainJson(rec.value, 64);

/**
 * What a worker sends for a chunk: one item per document, a record object, or for the packed ones (`packable`) the
 * JSON text of all the chunk's packed values in the place of the first and 0 in the others'.
 */
type PackedItem = SentRecord | string | 0;

/** The record a worker sent packed (`packable`), of its value; `findings` is the empty list given. */
const unpacked = (value: unknown, findings: readonly Finding[]): SentRecord => ({
  kind: TASK_EVENT,
  text: undefined,
  value,
  usable: true,
  findings,
  remap: 'json',
});

/**
 * The list an input gives (`PrefetchInput`); `paths` are made by the reader (`folderOf`), empty here. `own`: the
 * thread listed a team root itself (its records then say which document each is).
 */
function listOf(
  input: PrefetchInput,
): Omit<PrefetchList, 'paths'> & { readonly own?: boolean; readonly need?: (to: number) => void } {
  if ('list' in input) return input.list;
  if ('teamRoot' in input) {
    const given = input.listing && takeListing(input.listing, input.listWait ?? LIST_WAIT_MS);
    if (given) return given;
    return { ...teamDocumentNames(input.teamRoot, input.confineTo), own: true };
  }
  return unflat(input);
}

/**
 * Reads, parses and checks documents as the project index's context would (`checkDocument` with `sniff`), and
 * sends each whole but for its text and source map: positions are found again from the file when a rule places
 * a finding (`documentOf`). For the team dialect only, whose loaders read values and findings, never texts. Not
 * its paths either: the receiver has them (`withRef`).
 */
export const viewDocumentsTask: PoolTask<PrefetchInput, PackedItem> = {
  name: 'view-documents',
  start(input) {
    const { dirs, names, listedAsFile, own, need } = listOf(input);
    const at = folderOf(input.displayDir);
    // Listed here, not by the thread that takes the records: each record says which document it is.
    const named = own === true;
    const opts: CheckOptions = {
      sniff: true,
      ...(input.confineTo !== undefined ? { confineTo: input.confineTo } : {}),
    };
    const listed: CheckOptions = { ...opts, listedAsFile: true };
    const cut = input.eventState === true;
    // A worker that lists the root itself names its records: those are sent as objects.
    const pack = input.pack === true && !named;
    return (from, to) => {
      // A listing given block by block: its names up to `to` first.
      need?.(Math.min(to, dirs.length));
      const out: PackedItem[] = [];
      // The chunk's packed values, and where their text goes.
      let values: unknown[] | undefined;
      let textAt = 0;
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
        if (pack && packable(rec)) {
          if (values === undefined) {
            values = [];
            textAt = out.length;
          }
          values.push(rec.value);
          out.push(0);
        } else out.push(rec);
      }
      if (values !== undefined) out[textAt] = JSON.stringify(values);
      return out;
    };
  },
};

/** The slot each job posted by `prefetchTeamRoot` waits for this thread's listing in. */
const slots = new WeakMap<PoolAhead, SharedArrayBuffer>();

/**
 * Starts the workers that will read a team root's documents before this thread has listed them: each worker loads
 * its modules while this thread lists the root, then takes this thread's listing (`prefetchDocuments(..., ahead)`
 * gives it) instead of listing the root again; one that has waited `listWait` ms for it lists the root itself
 * (`teamDocumentNames`). `prefetchDocuments(..., ahead)` takes the job over (give it the same `eventState`);
 * `cancelTeamRoot` stops it. Undefined when no worker can start. `eventState`: see `PrefetchInput`.
 */
export function prefetchTeamRoot(
  teamRoot: string,
  displayDir: string,
  confineTo: string | undefined,
  pool: PoolOptions = {},
  eventState = false,
  listWait = LIST_WAIT_MS,
): PoolAhead | undefined {
  const listing = newSlot();
  const input = { teamRoot, displayDir, confineTo, eventState, listing, listWait, pack: true };
  const ahead = poolAhead(viewDocumentsTask, input, pool.threads, pool);
  if (ahead) slots.set(ahead, listing);
  return ahead;
}

/** Stops a job `prefetchTeamRoot` posted that `prefetchDocuments` will not take over. */
export function cancelTeamRoot(ahead: PoolAhead): void {
  const slot = slots.get(ahead);
  if (slot) giveListing(slot, undefined);
  poolAheadCancel(ahead);
}

/** Whether a worker of a job `prefetchTeamRoot` posted took this thread's listing (rather than listing the root). */
export function listingTaken(ahead: PoolAhead): boolean {
  const slot = slots.get(ahead);
  return slot !== undefined && Atomics.load(new Int32Array(slot, 0, 1), SLOT_STATE) === TAKEN;
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
  const { paths, dirs, names } = list;
  let input: PrefetchInput;
  if (ahead) {
    if (poolThreads(paths.length, pool) <= 1) {
      cancelTeamRoot(ahead);
      return undefined;
    }
    input = { list, displayDir, confineTo, eventState };
    // The workers wait for this listing (`prefetchTeamRoot`).
    const slot = slots.get(ahead);
    if (slot) giveListing(slot, list);
  } else {
    const flat = poolThreads(paths.length, pool) > 1 ? flatOf(list) : undefined;
    if (!flat) return undefined;
    input = { ...flat, displayDir, confineTo, eventState };
  }
  // This thread's display paths, folder by folder, in the order the chunks come.
  const at = folderOf(displayDir);
  // Documents a worker listed itself, not those of this list: read here (`mine`).
  let mine: ((from: number, to: number) => PackedItem[]) | undefined;
  let folder: string | undefined;
  // Each chunk is taken in as it comes, while the workers read on.
  const out: CheckedDocument[] = [];
  // The strings the documents repeat (run id, stage, kind...) are kept once, not once per document.
  const strings = new SharedStrings();
  // The packed values of the chunk being taken in, and the next one's index.
  let values: unknown[] = [];
  let nextValue = 0;
  for (const chunk of poolChunks(viewDocumentsTask, input, paths.length, { ...pool, ahead }))
    for (const sent of chunk as (ListedRecord | string | 0)[]) {
      const i = out.length;
      if (typeof sent === 'string') {
        values = JSON.parse(sent) as unknown[];
        nextValue = 0;
      }
      let rec: ListedRecord = typeof sent === 'object' ? sent : unpacked(values[nextValue++], NONE);
      if (rec.name !== undefined) {
        if (rec.dir !== undefined) folder = rec.dir;
        if (folder !== dirs[i] || rec.name !== names[i]) {
          mine ??= viewDocumentsTask.start({ list, displayDir, confineTo, eventState });
          // This thread's input packs nothing.
          rec = mine(i, i + 1)[0] as SentRecord;
        }
      }
      // Most documents have no finding: they share one empty list instead of one copied each.
      if (rec.findings.length === 0) (rec as { findings: readonly Finding[] }).findings = NONE;
      (rec as { kind: string | undefined }).kind = strings.kind(rec.kind);
      strings.share(rec.value);
      const path = paths[i]!;
      const shown = at(dirs[i]!).show(names[i]!);
      // Kept in the index (by path, which hashing flattens): the display path is the path's own tail, a slice of
      // its characters (~20 bytes) instead of a second copy of them (~120 bytes; 100k events: ~12 MB).
      const file = into && path.endsWith(shown) ? path.slice(path.length - shown.length) : shown;
      const doc = documentOf(withRef(rec, { path, file }));
      out.push(doc);
      into?.set(path, doc);
    }
  return out;
}
