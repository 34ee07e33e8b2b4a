import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { unreadable } from '../../check/validate-unit.js';
import { isTempName } from '../../fs/atomic.js';
import { folderLinkedOutside, outsideFolderFinding } from '../../fs/folder-link.js';
import { entryExists, readRegularFileUtf8 } from '../../fs/read-checkpoint.js';
import { createHash } from '../../util/crypto.js';
import type { CheckedDocument, ListedEntry, TreeContext } from '../dialect.js';
import { pathProblem } from './guards.js';
import { RUN_ID_RE } from './names.js';

/** The files of one run directory `.team/runs/<run_id>/`. */
export interface TeamRunFiles {
  /** The directory name: the run id. */
  readonly id: string;
  readonly dir: string;
  /** run.json, or undefined when the directory has none (an interrupted start-run). */
  readonly run: CheckedDocument | undefined;
  /** Event documents, by file name. */
  readonly events: readonly CheckedDocument[];
  /**
   * The file name of each of `events` as the folder's listing gave it (`fileNameOf` of its path, without making
   * the path one string first); undefined when the events are not the listing's documents (a folder linked out).
   */
  readonly eventNames?: readonly string[];
  /** Approval documents, by file name. */
  readonly approvals: readonly CheckedDocument[];
  /** Temp files left in the run directory, events/ or approvals/ (absolute paths). */
  readonly tempFiles: readonly string[];
}

/** What `.team/runs/current` holds. */
export interface TeamCurrent {
  readonly path: string;
  readonly exists: boolean;
  /** The first line, trimmed, when the file could be read. */
  readonly value: string | undefined;
}

/** A `.team/runs` directory, read once. */
export interface TeamTree {
  readonly runsDir: string;
  /** The project root: the directory holding `.team/`. */
  readonly projectDir: string;
  readonly current: TeamCurrent;
  /** Run directories, oldest first (run ids sort by time). */
  readonly runs: readonly TeamRunFiles[];
  /** Temp files directly in `.team/runs` (e.g. from replacing `current`). */
  readonly tempFiles: readonly string[];
}

/** A directory's entries sorted by name, and the paths the loader takes from them. */
interface Listed {
  readonly dir: string;
  readonly entries: readonly ListedEntry[];
  /** The path of each entry. */
  readonly paths: readonly string[];
  /** What each entry is to the loader: a document, a temp file, or neither. */
  readonly kinds: readonly EntryKind[];
  /** Paths of the `.json` entries that are not temp files (documents), in name order. */
  readonly json: readonly string[];
  /** The name of each of `json` (the listing's string). */
  readonly jsonNames: readonly string[];
  /** For each of `json`: whether the listing says it is a regular file (not a link, folder or FIFO). */
  readonly jsonIsFile: readonly boolean[];
  /** Paths of temp files, in name order. */
  readonly temps: readonly string[];
}

/** What an entry is to the loader. */
type EntryKind = 'document' | 'temp' | 'other';

/**
 * Every temp name holds `tmp` (`isTempName`: the temp mark or a `.tmp` suffix): a name without it is not tested
 * against the temp patterns (two regular expressions per name, ~0.6 us: ~60 ms of each thread's listing of a
 * 100k-event folder).
 */
const kindOf = (name: string): EntryKind =>
  name.includes('tmp') && isTempName(name) ? 'temp' : name.endsWith('.json') ? 'document' : 'other';

const EMPTY: Omit<Listed, 'dir'> = {
  entries: [],
  paths: [],
  kinds: [],
  json: [],
  jsonNames: [],
  jsonIsFile: [],
  temps: [],
};

/**
 * What a listing the context gave was sorted and split into, by the listing's identity: a context that keeps
 * listings (the project index keeps each until a change in that directory is reported) gives the same array
 * while the directory is unchanged, so a 100k-entry events folder is sorted and joined into paths once, and the
 * paths are the same strings at every load (their hashes computed once).
 */
const listedMemo = new WeakMap<readonly ListedEntry[], Listed>();

/**
 * The last listing of each directory, per context's `listing` (one per project index): when a directory is listed
 * again (an event was added), the names it still holds keep their path strings, which the index then finds at
 * once (their hashes are known), instead of 100k new strings to hash.
 */
const lastListed = new WeakMap<object, Map<string, Listed>>();

const byEntryName = (a: ListedEntry, b: ListedEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function sortedByName(l: readonly ListedEntry[]): boolean {
  for (let i = 1; i < l.length; i++) if (l[i - 1]!.name > l[i]!.name) return false;
  return true;
}

function listed(dir: string, ctx?: Pick<TreeContext, 'listing' | 'release'>): Listed {
  let given: readonly ListedEntry[] | undefined;
  let raw: readonly ListedEntry[];
  try {
    // A directory the caller already listed (validate's file walk, the project index) is not listed again.
    given = ctx?.listing?.(dir);
    raw = given ?? readdirSync(dir, { withFileTypes: true });
  } catch {
    return { dir, ...EMPTY };
  }
  // A context that releases documents (`validate`) loads once: nothing is kept for it.
  const kept = given !== undefined && !ctx?.release ? given : undefined;
  const known = kept && listedMemo.get(kept);
  if (known && known.dir === dir) return known;
  // A listing the context gave is usually sorted already (the project index sorts its listings).
  const entries = sortedByName(raw) ? raw : [...raw].sort(byEntryName);
  // `dir` comes from join (normalized) and entry names hold no separator: concatenation gives join's string
  // without its per-call normalization (measurable over 100k event files).
  const base = dir.endsWith(sep) ? dir : dir + sep;
  const last = kept && ctx?.listing ? lastListed.get(ctx.listing) : undefined;
  const before = last?.get(dir);
  let k = 0;
  const paths: string[] = [];
  const kinds: EntryKind[] = [];
  const json: string[] = [];
  const jsonNames: string[] = [];
  const jsonIsFile: boolean[] = [];
  const temps: string[] = [];
  for (const e of entries) {
    const name = e.name;
    // Both lists are sorted by name: one walk finds the names the last listing held.
    if (before) while (k < before.entries.length && before.entries[k]!.name < name) k++;
    const held = before !== undefined && before.entries[k]?.name === name;
    const p = held ? before.paths[k]! : base + name;
    const kind = held ? before.kinds[k]! : kindOf(name);
    paths.push(p);
    kinds.push(kind);
    if (kind === 'temp') temps.push(p);
    else if (kind === 'document') {
      json.push(p);
      jsonNames.push(name);
      jsonIsFile.push(e.isFile());
    }
  }
  const out: Listed = { dir, entries, paths, kinds, json, jsonNames, jsonIsFile, temps };
  if (kept) {
    listedMemo.set(kept, out);
    if (ctx?.listing) {
      if (last) last.set(dir, out);
      else lastListed.set(ctx.listing, new Map([[dir, out]]));
    }
  }
  return out;
}

const entries = (dir: string, ctx?: Pick<TreeContext, 'listing' | 'release'>) => listed(dir, ctx).entries;

/**
 * The path of each entry of a folder, as the loader makes them (through the context's listing, kept with it): a
 * caller that lists the same folders first (the project index signing a root) shares the loader's path strings.
 * Empty when the folder cannot be listed.
 */
export const listedPaths = (dir: string, ctx: Pick<TreeContext, 'listing'>): readonly string[] =>
  listed(dir, ctx).paths;

/**
 * What stands for a folder of a run that is a symbolic link out of the project (`ctx.confineTo`): one unreadable
 * document at the folder's path, its one finding `io/outside-project`. The folder is never listed, so no name of a
 * file outside the project is shown.
 */
function outsideFolder(dir: string, ctx: Pick<TreeContext, 'display'>): CheckedDocument {
  const file = ctx.display(dir);
  return { ...unreadable(dir, file), findings: [outsideFolderFinding(file)] };
}

/** The documents of a run's folder; `named.names`: their names in the listing, when they are its documents. */
function docsIn(
  dir: string,
  ctx: TreeContext,
  temps: string[],
  named?: { names?: readonly string[] },
): readonly CheckedDocument[] {
  if (folderLinkedOutside(dir, ctx.confineTo)) return [outsideFolder(dir, ctx)];
  const l = listed(dir, ctx);
  for (const t of l.temps) temps.push(t);
  if (named) named.names = l.jsonNames;
  // Not only regular files: a directory, FIFO or symlink (a loop, a dangling one) named like an event is read
  // too, so the reader reports what it is instead of the event silently vanishing.
  if (ctx.documents) return ctx.documents(dir, l.json);
  const out = new Array<CheckedDocument>(l.json.length);
  for (let i = 0; i < l.json.length; i++) out[i] = ctx.document(l.json[i]!);
  return out;
}

export function readCurrent(runsDir: string, confineTo: string | undefined): TeamCurrent {
  const path = join(runsDir, 'current');
  if (!existsSync(path)) return { path, exists: false, value: undefined };
  try {
    const text = readRegularFileUtf8(path, confineTo === undefined ? undefined : { confineTo });
    return { path, exists: true, value: text.split('\n')[0]!.trim() };
  } catch {
    return { path, exists: true, value: undefined };
  }
}

/** Reads one run directory's documents through the (caching) context. */
export function loadTeamRunFiles(dir: string, ctx: TreeContext): TeamRunFiles {
  // A run folder linked out of the project: a run whose run.json is that one finding, nothing listed.
  if (folderLinkedOutside(dir, ctx.confineTo))
    return { id: basename(dir), dir, run: outsideFolder(dir, ctx), events: [], approvals: [], tempFiles: [] };
  const temps = [...listed(dir, ctx).temps];
  const runPath = join(dir, 'run.json');
  // lstat, not existsSync: a dangling or looping run.json link, or a directory, is a broken run.json (reported),
  // not a missing one.
  const run = entryExists(runPath) ? ctx.document(runPath) : undefined;
  const named: { names?: readonly string[] } = {};
  const events = docsIn(join(dir, 'events'), ctx, temps, named);
  return {
    id: basename(dir),
    dir,
    run,
    events,
    ...(named.names !== undefined && named.names.length === events.length ? { eventNames: named.names } : {}),
    approvals: docsIn(join(dir, 'approvals'), ctx, temps),
    tempFiles: temps,
  };
}

/**
 * Reads a `.team/runs` directory: `current`, and every run directory's documents through the (caching) context.
 * `each`, when given, sees each run's files as soon as they are read, and what it returns is kept in their place.
 */
export function loadTeamTree(
  runsDir: string,
  ctx: TreeContext,
  each: (files: TeamRunFiles) => TeamRunFiles = (files) => files,
): TeamTree {
  const runs: TeamRunFiles[] = [];
  const rootTemps: string[] = [];
  for (const e of entries(runsDir, ctx)) {
    const dir = join(runsDir, e.name);
    if (isTempName(e.name)) {
      rootTemps.push(dir);
      continue;
    }
    // A link to a folder is not a run (as readdir types it), unless it leads out of the project: then it is
    // shown as one finding rather than silently skipped.
    if (e.isDirectory() || (e.isSymbolicLink() && folderLinkedOutside(dir, ctx.confineTo)))
      runs.push(each(loadTeamRunFiles(dir, ctx)));
  }
  return {
    runsDir,
    projectDir: dirname(dirname(runsDir)),
    current: readCurrent(runsDir, ctx.confineTo),
    runs,
    tempFiles: rootTemps,
  };
}

/**
 * The documents `loadTeamTree` asks for under a `.team/runs` root, listed through `ctx` (to read them ahead):
 * each run's run.json when it is a regular file, and its `events/` and `approvals/` documents. For each: its path,
 * the folder holding it and its name there (`paths[i]` is `dirs[i]`, a separator and `names[i]`; one string per
 * folder), and whether the listing saw a regular file there (`listedAsFile`).
 */
export function teamDocumentPaths(
  runsDir: string,
  ctx?: Pick<TreeContext, 'listing' | 'confineTo'>,
): { paths: string[]; dirs: string[]; names: string[]; listedAsFile: boolean[] } {
  let paths: string[] = [];
  let dirs: string[] = [];
  let names: string[] = [];
  let listedAsFile: boolean[] = [];
  // In reading order: a run's run.json, then its folders' documents.
  const parts: (Listed | { readonly path: string; readonly dir: string })[] = [];
  for (const r of entries(runsDir, ctx)) {
    if (isTempName(r.name) || !r.isDirectory()) continue;
    const dir = join(runsDir, r.name);
    if (entries(dir, ctx).some((f) => f.name === 'run.json' && f.isFile()))
      parts.push({ path: join(dir, 'run.json'), dir });
    for (const sub of ['events', 'approvals']) {
      const folder = join(dir, sub);
      // A folder linked out of the project is not listed (loadTeamRunFiles shows it as one finding).
      if (folderLinkedOutside(folder, ctx?.confineTo)) continue;
      const l = listed(folder, ctx);
      if (l.json.length > 0) parts.push(l);
    }
  }
  // Joined at the end, each list in one go (a 100k-event folder: four copies of 100k items, not 400k pushes).
  for (const l of parts)
    if ('json' in l) {
      paths = paths.concat(l.json);
      dirs = dirs.concat(new Array<string>(l.json.length).fill(l.dir));
      names = names.concat(l.jsonNames);
      listedAsFile = listedAsFile.concat(l.jsonIsFile);
    } else {
      paths.push(l.path);
      dirs.push(l.dir);
      names.push('run.json');
      listedAsFile.push(true);
    }
  return { paths, dirs, names, listedAsFile };
}

/**
 * The documents of a folder as `listed` finds them (its `.json` entries that are not temp files, in name order),
 * by name only: no path made for each entry and nothing kept. Empty when the folder cannot be listed.
 */
function documentNames(dir: string): { names: string[]; isFile: boolean[] } {
  const names: string[] = [];
  const isFile: boolean[] = [];
  let raw: readonly ListedEntry[];
  try {
    raw = readdirSync(dir, { withFileTypes: true });
  } catch {
    return { names, isFile };
  }
  const sorted = sortedByName(raw) ? raw : [...raw].sort(byEntryName);
  for (const e of sorted)
    if (kindOf(e.name) === 'document') {
      names.push(e.name);
      isFile.push(e.isFile());
    }
  return { names, isFile };
}

/**
 * `teamDocumentPaths(runsDir, { confineTo })` without the paths, for a thread that reads each document by its
 * folder and name (a pool worker reading a root ahead): the same folders, names and types in the same order, but
 * no path string made and kept for each of 100k events (~3 MB the scavenger copies before the first read).
 */
export function teamDocumentNames(
  runsDir: string,
  confineTo: string | undefined,
): { dirs: string[]; names: string[]; listedAsFile: boolean[] } {
  let dirs: string[] = [];
  let names: string[] = [];
  let listedAsFile: boolean[] = [];
  for (const r of entries(runsDir)) {
    if (isTempName(r.name) || !r.isDirectory()) continue;
    const dir = join(runsDir, r.name);
    if (entries(dir).some((f) => f.name === 'run.json' && f.isFile())) {
      dirs.push(dir);
      names.push('run.json');
      listedAsFile.push(true);
    }
    for (const sub of ['events', 'approvals']) {
      const folder = join(dir, sub);
      if (folderLinkedOutside(folder, confineTo)) continue;
      const l = documentNames(folder);
      if (l.names.length === 0) continue;
      dirs = dirs.concat(new Array<string>(l.names.length).fill(folder));
      names = names.concat(l.names);
      listedAsFile = listedAsFile.concat(l.isFile);
    }
  }
  return { dirs, names, listedAsFile };
}

/**
 * True for a directory that is a run: it holds a run.json, or at least some events or approvals (a run whose
 * run.json went missing is still read). An empty directory is what an interrupted start-run leaves.
 */
export function isRun(r: TeamRunFiles): boolean {
  return r.run !== undefined || r.events.length > 0 || r.approvals.length > 0;
}

/** The newest run: the greatest run id among directories with a run.json (well-formed ids win over others). */
export function newestRun(tree: TeamTree): TeamRunFiles | undefined {
  const withJson = tree.runs.filter((r) => r.run !== undefined);
  const runs = withJson.length > 0 ? withJson : tree.runs.filter(isRun);
  const wellFormed = runs.filter((r) => RUN_ID_RE.test(r.id));
  const pool = wellFormed.length > 0 ? wellFormed : runs;
  return pool[pool.length - 1];
}

/** The run that status shows: the one `current` names when it exists, else the newest run. */
export function selectedRun(tree: TeamTree): TeamRunFiles | undefined {
  const named = tree.current.value
    ? tree.runs.find((r) => r.id === tree.current.value && isRun(r))
    : undefined;
  return named ?? newestRun(tree);
}

/**
 * sha256 (lowercase hex) of a project file's bytes now, or undefined when it is missing, not a file, or resolves
 * (through a symlink) outside the project: ckpt never reads a file outside the project.
 */
export function hashProjectFile(projectDir: string, rel: string): string | undefined {
  if (pathProblem(rel)) return undefined;
  try {
    const abs = join(projectDir, rel);
    const real = realpathSync(abs);
    const root = realpathSync(projectDir);
    if (real !== root && !real.startsWith(root + sep)) return undefined;
    if (!statSync(real).isFile()) return undefined;
    return createHash('sha256').update(readFileSync(real)).digest('hex');
  } catch {
    return undefined;
  }
}

/** The `.team/runs` root a team document belongs to. */
export function teamRootOf(absPath: string): string | undefined {
  // The usual case, `<root>/.team/runs/<run>/<events|approvals>/<file>`, by slicing: what the dirname/basename
  // loop below finds for it (a nearer `.team/runs` would need <run> = `.team` and events/approvals = `runs`).
  if (sep === '/' && !absPath.endsWith('/') && absPath.indexOf('//') === -1) {
    const f = absPath.lastIndexOf('/');
    const s = absPath.lastIndexOf('/', f - 1);
    const r = s > 0 ? absPath.lastIndexOf('/', s - 1) : -1;
    const nearer = absPath.slice(s + 1, f) === 'runs' && absPath.slice(r + 1, s) === '.team';
    if (r > 0 && absPath.endsWith('/.team/runs', r) && !nearer) return absPath.slice(0, r);
  }
  let d = dirname(absPath);
  for (let i = 0; i < 3; i++) {
    if (basename(d) === 'runs' && basename(dirname(d)) === '.team') return d;
    d = dirname(d);
  }
  return undefined;
}

const SKIP = new Set(['node_modules', '.git', 'dist']);

/** Every `.team/runs` directory under a project directory (a few levels deep), or the directory itself. */
export function discoverTeamRoots(projectDir: string, depth = 3): string[] {
  if (basename(projectDir) === 'runs' && basename(dirname(projectDir)) === '.team') return [projectDir];
  if (basename(projectDir) === '.team')
    return existsSync(join(projectDir, 'runs')) ? [join(projectDir, 'runs')] : [];
  const out: string[] = [];
  const walk = (dir: string, left: number) => {
    const here = join(dir, '.team', 'runs');
    try {
      if (statSync(here).isDirectory()) out.push(here);
    } catch {
      // no team runs here
    }
    if (left === 0) return;
    for (const e of entries(dir))
      if (e.isDirectory() && !SKIP.has(e.name) && !e.name.startsWith('.')) walk(join(dir, e.name), left - 1);
  };
  walk(projectDir, depth);
  return out;
}
