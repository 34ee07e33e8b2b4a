import { readdirSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { entriesOfDialect, entryKinds } from '../detect/catalog.js';
import type { DialectId } from '../dialects/dialect.js';
import { dialects } from '../dialects/registry.js';
import { entryExists } from '../fs/read-checkpoint.js';

const SKIP_DIRS = new Set(['node_modules', '.git']);
const CHECKPOINT_NAME = /\.(?:json|jsonl|env)$/;

/** A file to check: its absolute path, and how reports show it. */
export interface FileRef {
  readonly path: string;
  readonly file: string;
  /** True when the user named the file itself (it is then detected by content too). */
  readonly explicit: boolean;
  /** True when the walk listed a regular file here (its Dirent), not a link: read without an fstat when small. */
  readonly listedAsFile?: boolean;
}

/**
 * A directory the walk found that is a unit of its dialect's tree rules (`Dialect.isUnitDir`, e.g. a team run):
 * it is walked and checked in one piece (check/validate-unit.ts), not file by file here.
 */
export interface UnitRef {
  /** Absolute path. */
  readonly dir: string;
  /** How reports show it (its files are shown as `<file>/<rest>`). */
  readonly file: string;
  readonly dialect: DialectId;
  /** False for a unit the walk does not enter (named node_modules or .git): only its tree rules read it. */
  readonly walk: boolean;
  /** Files inside it that were named explicitly, or found by another path's walk: checked with it. */
  readonly refs: FileRef[];
}

/**
 * Every directory the walk listed (absolute path, as `resolve` and concatenation build it) and its entries, in
 * readdir's order: tree rules use these instead of listing the same directories again (`TreeContext.listing`).
 */
export type Listings = Map<string, import('node:fs').Dirent[]>;

/** Where the walk stops at units (a directory it finds is then a unit, not walked). */
type UnitSink = { readonly found: UnitRef[] };

/**
 * Walks a directory depth-first. Paths are built by concatenation, not `path.join`: `dir` is already normalized
 * (it comes from `resolve`) and entry names hold no separator, so the result is the same string, and `join`'s
 * normalization costs about as much as reading a small file (measured on 100k files: 0.5 s vs 0.1 s walk).
 * The display path of each file is the end of its path when it can be (`cut`; else built from its directory's).
 */
export function walkFiles(
  dir: string,
  shown: string,
  out: FileRef[],
  listings: Listings,
  cut: number,
  units?: UnitSink,
): void {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  listings.set(dir, entries);
  const base = dir.endsWith(sep) ? dir : dir + sep;
  // Indexed: without the optimizing compiler (a brief input's runs) each step of a for-of allocates.
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const name = e.name;
    const p = base + name;
    const plain = cut >= 0 && !name.includes('\\');
    // The display path as a slice of the path (V8 keeps a slice as a reference: ~100 bytes less per file).
    const s = plain ? p.slice(cut) : shown + name.replace(/\\/g, '/');
    if (e.isDirectory()) {
      // A directory named like a checkpoint file (`run.json/`) is also a file ref: where the catalog expects a
      // file, the reader reports it (`io/not-a-regular-file`) instead of the file silently not being there.
      const self = CHECKPOINT_NAME.test(name) ? { path: p, file: s, explicit: false } : undefined;
      const unit = units && unitDialect(p);
      if (unit) {
        units.found.push({
          dir: p,
          file: s,
          dialect: unit,
          walk: !SKIP_DIRS.has(name),
          refs: self ? [self] : [],
        });
        continue;
      }
      if (self) out.push(self);
      if (!SKIP_DIRS.has(name)) walkFiles(p, `${s}/`, out, listings, plain ? cut : -1, units);
    } else out.push({ path: p, file: s, explicit: false, listedAsFile: e.isFile() }); // FIFOs and devices too: only refs the catalog names are opened, and the reader refuses them
  }
}

const PROBES = [`${sep}p.json`, `${sep}p${sep}p.json`, `${sep}p${sep}p${sep}p.json`];

/**
 * The dialect a directory is a unit of, if any: its dialect says so (`isUnitDir`), and no dialect places a file
 * in it under a root outside it other than the unit's own root (its tree rules would then need files of other
 * units: e.g. a run inside an `.agent-context` folder). Probed with file paths one to three levels down.
 */
function unitDialect(dir: string): DialectId | undefined {
  const d = dialects.find((x) => x.checkUnit && x.isUnitDir?.(dir));
  if (!d) return undefined;
  const inside = dir + sep;
  for (const other of dialects) {
    if (!other.rootOf || !other.checkTree) continue;
    for (const entry of entriesOfDialect(other.id))
      for (const kind of entryKinds(entry))
        for (const probe of PROBES) {
          const root = other.rootOf(dir + probe, kind);
          if (root === undefined || root === dir || root.startsWith(inside)) continue;
          if (other === d && `${root}${sep}` === dir.slice(0, dir.lastIndexOf(sep) + 1)) continue;
          return undefined;
        }
  }
  return d.id;
}

/** What `collectFiles` found: files to check one by one, units, and the paths that do not exist. */
export interface Collected {
  /** Files outside units, sorted by display path, each once. */
  readonly files: FileRef[];
  /** Units (only with `units: true`), sorted by display path. */
  readonly units: UnitRef[];
  readonly missing: string[];
  readonly listings: Listings;
  /** The directory display paths are relative to. */
  readonly cwd: string;
}

/**
 * Expands files and directories (recursively, skipping node_modules and .git) into file refs, sorted, each file
 * once. Paths that do not exist are returned separately. With `units`, a directory that is a unit of a dialect's
 * tree rules (`Dialect.isUnitDir`) is not entered: it is returned as a unit, with the files named inside it.
 */
export function collectFiles(
  paths: readonly string[],
  cwd = process.cwd(),
  opts: { readonly units?: boolean } = {},
): Collected {
  const seen = new Map<string, FileRef>();
  const listings: Listings = new Map();
  const missing: string[] = [];
  const units: UnitSink | undefined = opts.units ? { found: [] } : undefined;
  let single: FileRef[] | undefined;
  for (const p of paths) {
    const abs = resolve(cwd, p);
    let st: import('node:fs').Stats;
    try {
      st = statSync(abs);
    } catch {
      // A symlink loop or a dangling link is there, only unreadable: the reader reports which, not "missing".
      if (entryExists(abs)) seen.set(abs, { path: abs, file: displayPath(abs, cwd), explicit: true });
      else missing.push(p);
      continue;
    }
    if (st.isDirectory()) {
      const found: FileRef[] = [];
      // Files directly in the cwd show as bare names; others as '<shown dir>/<name>', exactly as displayPath would.
      const prefix = abs === cwd && !cwd.endsWith('/') ? '' : `${displayPath(abs, cwd).replace(/\/$/, '')}/`;
      // Where the display path is the end of the absolute one, it is cut from it (POSIX separators only).
      const base = abs.endsWith(sep) ? abs : abs + sep;
      const cut = sep === '/' && base.endsWith(prefix) ? base.length - prefix.length : -1;
      walkFiles(abs, prefix, found, listings, cut, units);
      // One directory alone holds each file once: no need to key 100k paths in a map.
      if (paths.length === 1) single = found;
      else for (const f of found) if (!seen.has(f.path)) seen.set(f.path, f);
    } else seen.set(abs, { path: abs, file: displayPath(abs, cwd), explicit: true });
  }
  let files = (single ?? [...seen.values()]).sort(byFile);
  const found = units ? uniqueUnits(units.found) : [];
  if (found.length > 0) files = intoUnits(files, found);
  return { files, units: found, missing, listings, cwd };
}

const byFile = (a: { file: string }, b: { file: string }) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);

/** How reports show a path: relative to the cwd when inside it, with `/` separators. */
export function displayPath(abs: string, cwd: string): string {
  const rel = abs.startsWith(`${cwd}/`) ? abs.slice(cwd.length + 1) : abs;
  return rel.replace(/\\/g, '/');
}

/** Units sorted, each once (two paths may walk to the same one). */
function uniqueUnits(found: UnitRef[]): UnitRef[] {
  const byDir = new Map<string, UnitRef>();
  for (const u of found) {
    const known = byDir.get(u.dir);
    if (!known) byDir.set(u.dir, u);
    else for (const r of u.refs) if (!known.refs.some((k) => k.path === r.path)) known.refs.push(r);
  }
  const key = (u: UnitRef) => u.dir + sep;
  const sorted = [...byDir.values()].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  // A unit inside another (reached by walking a path inside the outer one) is part of the outer one's walk.
  const outer: UnitRef[] = [];
  for (const u of sorted) {
    const last = outer[outer.length - 1];
    if (last && u.dir.startsWith(last.dir + sep)) {
      for (const r of u.refs) last.refs.push(r);
    } else outer.push(u);
  }
  return outer.sort(byFile);
}

/** Moves the files that lie inside a unit (named, or found by another path's walk) into it. */
function intoUnits(files: FileRef[], units: readonly UnitRef[]): FileRef[] {
  const dirs = units.map((u) => u.dir + sep).sort();
  const unitOf = new Map(units.map((u) => [u.dir + sep, u]));
  const out: FileRef[] = [];
  for (const f of files) {
    // The greatest unit directory not after the path is the only one that can hold it (units do not nest).
    let lo = 0;
    let hi = dirs.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (dirs[mid]! <= f.path) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const unit = at >= 0 && f.path.startsWith(dirs[at]!) ? unitOf.get(dirs[at]!) : undefined;
    if (!unit) out.push(f);
    else {
      const i = unit.refs.findIndex((r) => r.path === f.path);
      // Named explicitly wins (it is detected by content too).
      if (i < 0) unit.refs.push(f);
      else if (f.explicit) unit.refs[i] = f;
    }
  }
  return out;
}
