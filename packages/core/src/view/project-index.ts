import { lstatSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { withAttention } from '../attention/attention.js';
import { currentTime } from '../attention/clock.js';
import { createTreeContext } from '../check/validate-files.js';
import type { CheckedDocument, Dialect, DialectId, ListedEntry, TreeContext } from '../dialects/dialect.js';
import { dialects } from '../dialects/registry.js';
import { listedPaths, teamDocumentPaths } from '../dialects/team/load.js';
import { folderLinkedOutside, OUTSIDE_REASON, resolvesOutside } from '../fs/folder-link.js';
import { type PoolOptions, poolThreads } from '../pool/pool.js';
import { redactSecretsIn, redactSecretsInShared } from '../text/secrets.js';
import { displayUnder } from './display.js';
import { failedRootView } from './failed-run.js';
import {
  cancelTeamRoot,
  type PrefetchList,
  prefetchDocuments,
  prefetchTeamRoot,
} from './index-cache-prefetch.js';
import type { RunFacts, RunView } from './run-view.js';

export { displayUnder } from './display.js';

/** Options of `loadProject` and `createProjectIndex`. */
export interface LoadProjectOptions {
  /** Only these dialects. */
  readonly dialects?: readonly DialectId[];
  readonly onProgress?: (message: string) => void;
  /** The time staleness is measured against; default `currentTime()` (which honours CKPT_NOW) at each read. */
  readonly now?: number;
  /** Keep secret-looking values as written (`--show-secrets`); by default they are redacted (text/secrets.ts). */
  readonly showSecrets?: boolean;
  /**
   * Read no file whose real path is outside this directory (normally the project directory): a symlink out of
   * the project becomes an `io/outside-project` finding naming the link, never its target's content.
   */
  readonly confineTo?: string;
  /**
   * Only each run's one-line facts will be read (`summarizeRun`: status, counts, progress, findings, attention,
   * the resume plan's summary), as `ckpt status` and `ckpt list` print them: the task events a large team root
   * reads ahead keep only the members a run's state is derived from (`eventStateValue`), so a unit's detail
   * (inputs, evidence, next, an attempt's reason) is not in the runs given. Every summary is the same as without.
   */
  readonly summariesOnly?: boolean;
}

export interface ProjectIndexOptions extends LoadProjectOptions {
  /**
   * Record the size, mtime and inode of every file and folder under each root when it is loaded, so that
   * `refresh()` without paths can tell what changed (default true). `loadProject`, which loads once, turns it off
   * (and the index then keeps no redacted parts for a next load either).
   */
  readonly signatures?: boolean;
  /**
   * The worker pool that reads a large team root ahead (default: `os.availableParallelism()` threads, one for
   * small roots; `{ threads: 1 }` reads everything on this thread). Not used with `readDocument`.
   */
  readonly pool?: PoolOptions;
  /** Reads, parses and checks one document (default: the per-file pipeline). Injectable to count reads. */
  readonly readDocument?: (absPath: string, file: string) => CheckedDocument;
}

/** What a load or refresh found. */
export interface IndexUpdate {
  /** Every run, newest first: what a fresh `loadProject` returns at this moment. */
  readonly runs: RunView[];
  /**
   * `<dialect>/<id>` of the runs that are new or were derived again, or whose attention changed. A run not listed
   * is the same object as in the previous update.
   */
  readonly changed: string[];
  /** `<dialect>/<id>` of the runs that are gone. */
  readonly removed: string[];
  readonly stats: IndexStats;
}

/** The work one load or refresh did. */
export interface IndexStats {
  /** Documents read (and parsed and checked); a document served from the index is not counted. */
  readonly documentsRead: number;
  /** Roots whose runs were derived (again). */
  readonly rootsLoaded: number;
  /** Roots whose runs were kept as they were. */
  readonly rootsReused: number;
  /** Whether the roots were searched for again (`discover`). */
  readonly rediscovered: boolean;
}

/**
 * The runs of a project, kept between loads: each document as the per-file pipeline left it and each root's runs,
 * so that a refresh after some files changed reads only those files and derives only the runs of the roots holding
 * them. Facts that depend on the clock or on other processes (attention and staleness, a temp file's age, whether
 * a lock's holder is alive) are derived again on every load and refresh, never served from the index.
 */
export interface ProjectIndex {
  readonly dir: string;
  /** Loads everything (again), reusing nothing. */
  load(): IndexUpdate;
  /**
   * Brings the index up to date. With `paths` (absolute, or relative to the project folder: files or folders
   * created, changed, deleted or renamed, both names of a rename), only the roots holding them are derived again
   * and only those files read again; every other file is taken to be unchanged. Without paths, every file and
   * folder under every root is compared by size, mtime and inode with what was loaded.
   */
  refresh(paths?: readonly string[]): IndexUpdate;
  /** The runs as of the last load or refresh, time-dependent facts derived now (`refresh([])`). */
  runs(): RunView[];
}

/** A directory holding one dialect's runs, as its `discover` found it. */
export interface ProjectRoot {
  readonly dialect: DialectId;
  /** Absolute path. */
  readonly root: string;
}

interface RootEntry {
  readonly dialect: Dialect;
  readonly root: string;
  facts: RunFacts[];
  /** Documents the loader asked for, in the order asked; none for a one-shot load (no signatures). */
  docs: readonly string[];
  /** Folders whose documents the loader asked for together (`ctx.documents`). */
  folders: ReadonlySet<string>;
  /** The facts depend on the clock or on other processes: derived again on every read. */
  volatile: boolean;
  /** Files the facts depend on outside the root (team approvals: the approved artifacts). */
  externals: Set<string>;
  /** Path → `size:mtime:ino` (files) or `d:mtime:ino` (folders) under the root and of the externals. */
  signature: Map<string, string> | undefined;
}

interface RunSlot {
  readonly facts: RunFacts;
  readonly attention: string;
  readonly view: RunView;
}

const key = (e: ProjectRoot | RootEntry) =>
  `${typeof e.dialect === 'string' ? e.dialect : e.dialect.id}\0${e.root}`;
const runKey = (r: RunFacts) => `${r.dialect}/${r.id}`;

function selected(opts: LoadProjectOptions): Dialect[] {
  return dialects.filter(
    (d) => d.discover && d.loadRunViews && (!opts.dialects || opts.dialects.includes(d.id)),
  );
}

/** Every root of every (selected) dialect under a project directory. */
export function discoverRoots(projectDir: string, opts: LoadProjectOptions = {}): ProjectRoot[] {
  const dir = resolve(projectDir);
  const out: ProjectRoot[] = [];
  for (const d of selected(opts)) {
    let roots: string[] = [];
    try {
      roots = d.discover!(dir);
    } catch {
      // A dialect that cannot search (an unreadable directory) contributes no roots; its files still validate.
    }
    for (const root of roots) out.push({ dialect: d.id, root: resolve(root) });
  }
  return out;
}

const fileSig = (p: string): string | undefined => {
  try {
    const st = statSync(p);
    return `${st.isDirectory() ? 'd' : st.size}:${st.mtimeMs}:${st.ino}`;
  } catch {
    return undefined;
  }
};

/** The signature of a symbolic link itself (`lstat`). */
const linkSig = (p: string): string => {
  try {
    const st = lstatSync(p);
    return `l:${st.mtimeMs}:${st.ino}`;
  } catch {
    return 'missing';
  }
};

/**
 * Adds the signature of `path` and, for a folder, of everything under it (symlinks followed once, no deeper). A
 * folder below the root that is a link out of `confineTo` is signed as the link and never listed (nothing under
 * it is stat'ed): only folders are lstat'ed for it, never each file. `depth` 0: `path` is a root. `entries`: the
 * paths of a folder's entries as the loader will ask for them (`listedPaths`), so that the signature and the
 * documents share one string per path (100k events: ~19 MB); without it each folder is listed here.
 */
function sign(
  path: string,
  into: Map<string, string>,
  confineTo?: string,
  depth = 0,
  entries?: (dir: string) => readonly string[],
): void {
  // A root outside is loaded as one finding, with an empty signature: nothing under it is listed or stat'ed.
  if (depth === 0 && confineTo !== undefined && resolvesOutside(path, confineTo)) return;
  const s = fileSig(path);
  if (s === undefined) return;
  into.set(path, s);
  if (!s.startsWith('d') || depth > 32) return;
  if (depth > 0 && folderLinkedOutside(path, confineTo)) {
    // Signed as the link (re-pointed, it changes), not as the folder outside (a file added there does not).
    into.set(path, linkSig(path));
    return;
  }
  if (entries) {
    for (const p of entries(path)) sign(p, into, confineTo, depth + 1, entries);
    return;
  }
  let names: string[];
  try {
    names = readdirSync(path);
  } catch {
    return;
  }
  const base = path.endsWith('/') ? path : `${path}/`;
  for (const n of names) sign(base + n, into, confineTo, depth + 1);
}

/**
 * The paths of `before` that are not in `after`. A root derived again mostly asks for the same documents in the
 * same order (the same strings, from kept listings), so the common prefix and suffix are skipped by identity.
 */
function missingFrom(before: readonly string[], after: readonly string[]): string[] {
  const n = Math.min(before.length, after.length);
  let i = 0;
  while (i < n && before[i] === after[i]) i++;
  let j = 0;
  while (j < n - i && before[before.length - 1 - j] === after[after.length - 1 - j]) j++;
  if (i + j === before.length) return [];
  const rest = before.slice(i, before.length - j);
  // A few paths (a file deleted or renamed) are looked for in place; many, through a set.
  if (rest.length <= 4) return rest.filter((p) => !after.includes(p));
  const present = new Set(after);
  return rest.filter((p) => !present.has(p));
}

const byName = (a: ListedEntry, b: ListedEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Where `name` is, or would go, in a listing sorted by name. */
function searchByName(l: readonly ListedEntry[], name: string): number {
  let lo = 0;
  let hi = l.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (l[mid]!.name < name) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The entry of a regular file `lstat` just found, as `readdir` would list it. */
const fileEntry = (name: string): ListedEntry => ({
  name,
  isFile: () => true,
  isDirectory: () => false,
  isSymbolicLink: () => false,
});

/** The documents a root asked for, as a set (made when first needed, kept with the entry). */
const askedSets = new WeakMap<RootEntry, Set<string>>();
function askedBy(e: RootEntry): Set<string> {
  let s = askedSets.get(e);
  if (!s) {
    s = new Set(e.docs);
    askedSets.set(e, s);
  }
  return s;
}

const within = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

/** Files whose name makes the folder holding them a root (resumable: `reports/<run>/state.env`). */
const ROOT_MARKERS = new Set(['state.env', 'checklist.state.env']);

/**
 * Files outside a root that its runs depend on: the artifacts a team approval names (their bytes now decide
 * whether the approval still holds), relative to the project holding `.team/`.
 */
function externalsOf(d: Dialect, root: string, facts: readonly RunFacts[]): Set<string> {
  const out = new Set<string>();
  if (d.id !== 'team') return out;
  const project = dirname(dirname(root));
  for (const r of facts)
    for (const a of r.approvals)
      if (typeof a.artifact === 'string' && a.artifact !== '') out.add(resolve(project, a.artifact));
  return out;
}

/**
 * Whether a `.team/runs` root looks large enough for the worker pool, before its events are listed: a run's
 * `events/` folder of 64 KiB or more (on ext4 ~650 entries, on tmpfs ~3,200). Only a hint for starting workers
 * early; which documents are read where is decided once they are listed.
 */
function manyEvents(root: string, listing: (dir: string) => readonly ListedEntry[]): boolean {
  try {
    for (const e of listing(root))
      if (
        e.isDirectory() &&
        (statSync(`${root}/${e.name}/events`, { throwIfNoEntry: false })?.size ?? 0) >= 65536
      )
        return true;
  } catch {
    // unreadable: the loader reports it
  }
  return false;
}

/**
 * The paths of `ahead` that are not in `used`. The loader asks for a root's documents in the order they were
 * listed to be read ahead, so one walk of both usually finds them; a set of `used` otherwise.
 */
function notAsked(ahead: readonly string[], used: readonly string[]): string[] {
  let j = 0;
  for (const p of ahead) {
    while (j < used.length && used[j] !== p) j++;
    if (j === used.length) {
      const asked = new Set(used);
      return ahead.filter((q) => !asked.has(q));
    }
    j++;
  }
  return [];
}

/** An incremental index of the runs under a project directory (see `ProjectIndex`). */
export function createProjectIndex(projectDir: string, opts: ProjectIndexOptions = {}): ProjectIndex {
  const dir = resolve(projectDir);
  const display = displayUnder(dir);
  const byId = new Map(dialects.map((d) => [d.id, d]));
  const inner = createTreeContext(opts.confineTo !== undefined ? { confineTo: opts.confineTo } : {}, display);
  const docs = inner.known;
  const read = opts.readDocument
    ? (abs: string) => {
        const doc = opts.readDocument!(abs, display(abs));
        docs.set(abs, doc);
        return doc;
      }
    : (abs: string) => inner.document(abs);
  const signatures = opts.signatures !== false;
  /**
   * Directory listings, kept until a change in that directory is reported (or found by signature): a loader that
   * lists through `ctx.listing` gets the same array while the directory is unchanged (team: a 100k-entry events
   * folder is not listed and sorted again when one event changed).
   */
  const listings = new Map<string, readonly ListedEntry[]>();
  const listing = (absDir: string): readonly ListedEntry[] => {
    let l = listings.get(absDir);
    if (!l) {
      l = readdirSync(absDir, { withFileTypes: true }).sort(byName);
      listings.set(absDir, l);
    }
    return l;
  };
  /**
   * Brings the listings a change at `p` can make wrong up to date: forgets those of `p` and every folder under
   * it; in its folder's, adds or removes `p` when it is a regular file that appeared or an entry that went, and
   * forgets that listing for any other change of kind (a file became a link or a folder).
   */
  const forgetListings = (p: string) => {
    listings.delete(p);
    const prefix = p.endsWith('/') ? p : `${p}/`;
    for (const d of listings.keys()) if (d.startsWith(prefix)) listings.delete(d);
    const parent = dirname(p);
    const l = listings.get(parent);
    if (!l) return;
    const name = basename(p);
    const at = searchByName(l, name);
    const was = l[at]?.name === name ? l[at] : undefined;
    let isFile: boolean | undefined;
    try {
      isFile = lstatSync(p).isFile();
    } catch {
      isFile = undefined; // gone
    }
    if (was ? was.isFile() && isFile === true : isFile === undefined) return;
    if (was && isFile === undefined) listings.set(parent, [...l.slice(0, at), ...l.slice(at + 1)]);
    else if (!was && isFile) listings.set(parent, [...l.slice(0, at), fileEntry(name), ...l.slice(at)]);
    else listings.delete(parent);
  };
  /**
   * Redacted parts by identity: a run derived again keeps its unchanged units, which are not redacted again. A
   * one-shot load (`signatures: false`, as `loadProject`) keeps nothing for a next time.
   */
  const redacted = new WeakMap<object, unknown>();
  const redact = (view: RunView): RunView =>
    opts.showSecrets ? view : signatures ? redactSecretsInShared(view, redacted) : redactSecretsIn(view);
  let roots: RootEntry[] = [];
  let slots = new Map<string, RunSlot[]>();
  let documentsRead = 0;
  /**
   * The documents of each folder a loader read through `ctx.documents`: the paths it gave and the documents it
   * got. While the same paths are asked for again and none of them was dropped since (`changedIn`), the same array
   * is given back; after a change, a copy with only those read again (team: 100k events, one changed).
   */
  const folders = new Map<string, { paths: readonly string[]; docs: readonly CheckedDocument[] }>();
  /** Paths dropped from `docs` since their folder's documents were last given, by folder. */
  const changedIn = new Map<string, Set<string>>();
  /** Drops a document from the index (it is read again when asked for). */
  const drop = (p: string): boolean => {
    const folder = dirname(p);
    const set = changedIn.get(folder);
    if (set) set.add(p);
    else if (folders.has(folder)) changedIn.set(folder, new Set([p]));
    return docs.delete(p);
  };
  /** Documents dropped from the index because they changed, since the last load or refresh. */
  let invalidated = 0;
  const invalidate = (p: string) => {
    if (drop(p)) invalidated++;
  };

  /**
   * Derives one root's runs. `signature`: what is under the root now, when the caller already has it (it must be
   * taken before the files are read, so that a change made meanwhile shows at the next refresh).
   */
  const loadEntry = (
    d: Dialect,
    root: string,
    signature?: Map<string, string>,
    prev?: RootEntry,
  ): RootEntry => {
    // A root the dialect found (e.g. `.ulpi/runs` made a symlink to another folder) resolving outside the project:
    // its entries are not listed, so not even the names of files outside it are shown.
    if (opts.confineTo !== undefined && resolvesOutside(root, opts.confineTo)) {
      // Not listed, not signed (no stat of what is outside): the link itself changing makes a rediscovery.
      const facts = [
        failedRootView(d, display(root), 'io/outside-project', `${display(root)} ${OUTSIDE_REASON}`),
      ];
      const none = signatures ? new Map<string, string>() : undefined;
      return {
        dialect: d,
        root,
        facts,
        docs: [],
        folders: new Set(),
        volatile: false,
        externals: new Set(),
        signature: none,
      };
    }
    if (signatures && !signature) {
      signature = new Map();
      // Listed through the index's listings (as the loader lists): the loader then finds the same listings and
      // path strings instead of listing every folder again.
      sign(root, signature, opts.confineTo, 0, (folder) => listedPaths(folder, { listing }));
    }
    // The documents the loader asks for, for the next update to tell which ones it no longer asks for. A one-shot
    // load (no signatures) has no next update: it does not keep them (100k paths of a team root, pushed one by one).
    const used: string[] = [];
    const usedFolders = new Set<string>();
    let volatile = false;
    // The documents read ahead (below), in the order of their paths, and how many of them the loader took so far.
    let ahead: readonly string[] = [];
    let aheadDocs: readonly CheckedDocument[] = [];
    let taken = 0;
    /**
     * The documents read ahead for `paths` when they are the next ones read ahead, in the same order: the loader
     * asks for a folder's documents in the order they were listed to be read ahead (a run's run.json, read on its
     * own, comes before its events), so they are taken as one slice, without a lookup of each path.
     */
    const readAhead = (paths: readonly string[]): readonly CheckedDocument[] | undefined => {
      const n = paths.length;
      let at = taken;
      while (at < ahead.length && at < taken + 2 && ahead[at] !== paths[0]) at++;
      if (at + n > ahead.length) return undefined;
      for (let i = 0; i < n; i++) if (ahead[at + i] !== paths[i]) return undefined;
      taken = at + n;
      return aheadDocs.slice(at, taken);
    };
    const fetch = (abs: string) => {
      const known = docs.get(abs);
      if (known) return known;
      documentsRead++;
      return read(abs);
    };
    const ctx: TreeContext = {
      document(abs) {
        if (signatures) used.push(abs);
        // A one-shot load does not keep what it read ahead by path (below): the next document read ahead is this.
        if (!signatures && taken < ahead.length) {
          const got = readAhead([abs]);
          if (got) return got[0]!;
        }
        return fetch(abs);
      },
      documents(_absDir, paths) {
        if (paths.length === 0) return [];
        // Kept by folder (`dirname`, as `drop` finds it): every path is an entry of the same directory.
        const folder = dirname(paths[0]!);
        if (signatures) for (const p of paths) used.push(p);
        const kept = folders.get(folder);
        const changed = changedIn.get(folder);
        changedIn.delete(folder);
        let got: readonly CheckedDocument[];
        if (!kept) got = readAhead(paths) ?? paths.map(fetch);
        else if (kept.paths === paths && !changed) got = kept.docs;
        else if (kept.paths === paths) {
          const copy = kept.docs.slice();
          for (const p of changed!) {
            const i = paths.indexOf(p);
            if (i >= 0) copy[i] = fetch(p);
          }
          got = copy;
        } else {
          // The folder was listed again (a file added or removed): both lists are sorted the same way and share
          // the strings of the names still there (team/load.ts), so one walk keeps what did not change.
          const was = kept.paths;
          const out = new Array<CheckedDocument>(paths.length);
          let j = 0;
          for (let i = 0; i < paths.length; i++) {
            const p = paths[i]!;
            while (j < was.length && was[j] !== p && was[j]! < p) j++;
            out[i] = j < was.length && was[j] === p && !changed?.has(p) ? kept.docs[j]! : fetch(p);
          }
          got = out;
        }
        folders.set(folder, { paths, docs: got });
        usedFolders.add(folder);
        return got;
      },
      display,
      listing,
      ...(opts.confineTo !== undefined ? { confineTo: opts.confineTo } : {}),
      volatile() {
        volatile = true;
      },
      // Loaded once (`loadProject`): the team loader keeps nothing by document identity for a next load.
      ...(signatures ? {} : { loadsOnce: true }),
      // ... and whose runs are read for their summaries only: their loaders make no more than those print.
      ...(!signatures && opts.summariesOnly === true ? { summariesOnly: true } : {}),
    };
    opts.onProgress?.(`reading ${d.id} runs in ${display(root)}`);
    // A large team root is read ahead on the worker pool; the loader then finds its documents here.
    if (d.id === 'team' && !opts.readDocument) {
      // Nothing read yet and many events (a cold load): the workers load their modules while this thread lists
      // the root, then read its documents by this thread's listing (`prefetchTeamRoot`).
      const cold = !prev && docs.size === 0 && manyEvents(root, listing);
      const eventState = opts.summariesOnly === true;
      const early = cold ? prefetchTeamRoot(root, dir, opts.confineTo, opts.pool, eventState) : undefined;
      let listed: PrefetchList;
      let list: PrefetchList = { paths: [], dirs: [], names: [], listedAsFile: [] };
      try {
        listed = teamDocumentPaths(root, { listing, confineTo: opts.confineTo });
        const { paths } = listed;
        // At most this many are not in the index: the root asked for `prev.docs` last time, and a document it no
        // longer lists or that changed was dropped (`invalidated`). Too few for the pool: the loader reads them.
        const unknown = prev ? Math.max(0, paths.length - prev.docs.length) + 2 * invalidated : paths.length;
        if (poolThreads(unknown, opts.pool) > 1) {
          // Nothing read yet (a cold load): every document is read ahead.
          if (docs.size === 0) list = listed;
          else {
            const unknownAt = paths.map((p) => !docs.has(p));
            const unread = (_: unknown, i: number) => unknownAt[i]!;
            list = {
              paths: paths.filter(unread),
              dirs: listed.dirs.filter(unread),
              names: listed.names.filter(unread),
              listedAsFile: listed.listedAsFile.filter(unread),
            };
          }
        }
      } catch (e) {
        // The workers started early would wait up to 10 s for a listing that is not coming.
        if (early) cancelTeamRoot(early);
        throw e;
      }
      ahead = list.paths;
      // Each document goes into the index as its chunk comes, while the workers read on. A one-shot load (no
      // signatures: nothing is read again from the index) takes them from the list only (`readAhead`): no 100k
      // paths hashed into the map (each path flattened, a copy kept alive).
      // The workers started early read the whole listing or nothing (they wait for it: `prefetchTeamRoot`).
      if (early && list !== listed) cancelTeamRoot(early);
      const read = prefetchDocuments(
        list,
        dir,
        opts.confineTo,
        opts.pool,
        signatures ? docs : undefined,
        list === listed ? early : undefined,
        eventState,
      );
      if (read) {
        documentsRead += read.length;
        aheadDocs = read;
      } else ahead = [];
    }
    let facts: RunFacts[];
    try {
      facts = d.loadRunViews!(root, ctx);
    } catch (e) {
      facts = [
        failedRootView(
          d,
          display(root),
          'io/unreadable',
          `the ${d.id} loader failed on ${display(root)}: ${(e as Error)?.message ?? String(e)}`,
        ),
      ];
    }
    if (signatures && ahead.length > 0) for (const p of notAsked(ahead, used)) drop(p);
    const externals = externalsOf(d, root, facts);
    if (signature) {
      // Outside the root it holds only the artifacts of the last derivation (its externals), when it was signed
      // before; a signature made for this load holds only what is under the root.
      for (const p of prev ? prev.externals : signature.keys()) if (!within(p, root)) signature.delete(p);
      for (const p of externals) signature.set(p, fileSig(p) ?? 'missing');
    }
    return { dialect: d, root, facts, docs: used, folders: usedFolders, volatile, externals, signature };
  };

  /** The views of the current roots; a run whose facts or attention changed counts as changed. */
  const assemble = (rediscovered: boolean, loaded: number): IndexUpdate => {
    const now = opts.now ?? currentTime();
    const runs: RunView[] = [];
    const changed: string[] = [];
    const next = new Map<string, RunSlot[]>();
    for (const e of roots) {
      const before = slots.get(key(e));
      const list: RunSlot[] = [];
      e.facts.forEach((facts, i) => {
        const old = before?.[i];
        const view = withAttention(facts, now);
        const attention = JSON.stringify(view.attention);
        let slot: RunSlot;
        if (old && old.facts === facts && old.attention === attention) slot = old;
        else {
          slot = { facts, attention, view: redact(view) };
          changed.push(runKey(facts));
        }
        list.push(slot);
        runs.push(slot.view);
      });
      next.set(key(e), list);
    }
    const present = new Set(runs.map((r) => `${r.dialect}/${r.id}`));
    const removed = new Set<string>();
    for (const list of slots.values())
      for (const s of list) if (!present.has(runKey(s.facts))) removed.add(runKey(s.facts));
    slots = next;
    const stats: IndexStats = {
      documentsRead,
      rootsLoaded: loaded,
      rootsReused: roots.length - loaded,
      rediscovered,
    };
    documentsRead = 0;
    invalidated = 0;
    return {
      runs: runs.sort(compareRunsNewestFirst),
      changed: [...new Set(changed)],
      removed: [...removed],
      stats,
    };
  };

  /**
   * Derives again the roots in `dirty` (by `key`) and the volatile ones, searching for roots again when
   * `rediscover`. `signed`: signatures already taken for dirty roots.
   */
  const update = (
    dirty: ReadonlySet<string>,
    rediscover: boolean,
    signed: ReadonlyMap<string, Map<string, string> | undefined> = new Map(),
  ): IndexUpdate => {
    const old = new Map(roots.map((e) => [key(e), e]));
    const list = rediscover
      ? discoverRoots(dir, opts)
      : roots.map((e) => ({ dialect: e.dialect.id, root: e.root }));
    const next: RootEntry[] = [];
    let loaded = 0;
    for (const r of list) {
      const k = key(r);
      const prev = old.get(k);
      if (prev && !dirty.has(k) && !prev.volatile) next.push(prev);
      else {
        const e = loadEntry(byId.get(r.dialect)!, r.root, signed.get(k), prev);
        // Derived again only because it is volatile: a run that came out the same keeps its object (not changed).
        if (prev?.volatile && !dirty.has(k))
          e.facts = e.facts.map((f, i) => {
            const was = prev.facts[i];
            return was && JSON.stringify(was) === JSON.stringify(f) ? was : f;
          });
        next.push(e);
        loaded++;
      }
    }
    // Documents no root asks for any more are dropped (a root derived again asked for what it still needs).
    const live = new Map(next.map((e) => [key(e), e]));
    for (const [k, prev] of old) {
      const now = live.get(k);
      if (now === prev) continue;
      for (const p of now ? missingFrom(prev.docs, now.docs) : prev.docs)
        if (!next.some((e) => e !== now && askedBy(e).has(p))) drop(p);
    }
    // A folder no root asks for any more (a run deleted) does not keep its documents.
    const asked = new Set(next.flatMap((e) => [...e.folders]));
    for (const f of folders.keys())
      if (!asked.has(f)) {
        folders.delete(f);
        changedIn.delete(f);
      }
    roots = next;
    return assemble(rediscover, loaded);
  };

  const refreshPaths = (paths: readonly string[]): IndexUpdate => {
    const dirty = new Set<string>();
    const signed = new Map<string, Map<string, string> | undefined>();
    let rediscover = false;
    for (const given of paths) {
      const p = resolve(dir, given);
      forgetListings(p);
      const sig = fileSig(p);
      // The document itself, or every document under a folder of that name (a deleted or renamed folder).
      if (!docs.has(p) && (sig === undefined || sig.startsWith('d'))) {
        const prefix = `${p}/`;
        for (const d of docs.keys()) if (d.startsWith(prefix)) invalidate(d);
      }
      invalidate(p);
      let inside = false;
      for (const e of roots) {
        if (within(e.root, p)) rediscover = true; // a root itself, or a folder holding one
        const under = p !== e.root && within(p, e.root);
        inside ||= under;
        if (!under && !e.externals.has(p) && !within(e.root, p)) continue;
        const k = key(e);
        dirty.add(k);
        if (!e.signature) continue;
        if (!under && !e.externals.has(p)) {
          signed.set(k, undefined); // the root itself changed: signed again in full
          continue;
        }
        // The root is derived again with this signature: updated in place, only where `p` is.
        const s = signed.has(k) ? signed.get(k) : e.signature;
        if (!s) continue;
        const was = s.get(p);
        if (was?.startsWith('d')) {
          for (const q of [...s.keys()]) if (within(q, p)) s.delete(q);
        } else s.delete(p);
        if (under) sign(p, s, opts.confineTo, 1);
        else s.set(p, sig ?? 'missing');
        signed.set(k, s);
      }
      // A root can appear or go only with a folder, a file that marks one, or a path outside every root.
      if (!inside || sig?.startsWith('d') || ROOT_MARKERS.has(basename(p))) rediscover = true;
    }
    return update(dirty, rediscover, signed);
  };

  const refreshBySignature = (): IndexUpdate => {
    const dirty = new Set<string>();
    const signed = new Map<string, Map<string, string> | undefined>();
    for (const e of roots) {
      const now = new Map<string, string>();
      sign(e.root, now, opts.confineTo);
      for (const p of e.externals) now.set(p, fileSig(p) ?? 'missing');
      const before = e.signature!;
      let differs = now.size !== before.size;
      for (const [p, s] of now)
        if (before.get(p) !== s) {
          differs = true;
          invalidate(p);
          forgetListings(p);
        }
      for (const p of before.keys())
        if (!now.has(p)) {
          invalidate(p);
          forgetListings(p);
        }
      if (differs) {
        dirty.add(key(e));
        signed.set(key(e), now);
      }
    }
    return update(dirty, true, signed);
  };

  const index: ProjectIndex = {
    dir,
    load() {
      docs.clear();
      folders.clear();
      changedIn.clear();
      listings.clear();
      roots = [];
      return update(new Set(), true);
    },
    refresh(paths) {
      if (paths !== undefined) return refreshPaths(paths);
      return signatures ? refreshBySignature() : index.load();
    },
    runs() {
      return index.refresh([]).runs;
    },
  };
  return index;
}

/** Newest first: by updatedAt, then createdAt, then id. */
export function compareRunsNewestFirst(a: RunView, b: RunView): number {
  const ta = a.updatedAt ?? a.createdAt ?? '';
  const tb = b.updatedAt ?? b.createdAt ?? '';
  if (ta !== tb) return ta < tb ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
