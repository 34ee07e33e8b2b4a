import { dirname, sep } from 'node:path';
import type { CheckedDocument, Dialect, DialectId, TreeContext, UnitFacts } from '../dialects/dialect.js';
import { getDialect } from '../dialects/registry.js';
import type { Finding } from '../findings/finding.js';
import type { PoolTask } from '../pool/pool.js';
import { type CheckOptions, checkDocument, dialectOf } from './check-document.js';
import { displayPath, type FileRef, type Listings, type UnitRef, walkFiles } from './collect-files.js';
import { addByFile, byFile, type FileResult, withTreeFindings } from './merge-findings.js';
import { type DocRecord, documentOf } from './records.js';
import { fileChecker, howOf } from './validate-task.js';

/** What checking one unit gives: its files' results (sorted, tree findings merged), and what its root needs. */
export interface UnitResult {
  /**
   * Its report entries, sorted: as they are on the thread that checked the unit, packed to cross threads cheaply
   * from a worker (`sendable`; `unpackEntries` takes either).
   */
  readonly entries: PackedEntries | FileResult[];
  /** Files in it that are not checkpoints. */
  readonly skipped: number;
  /** Whether a document in it belongs to the unit's root (its tree rules then apply, and ran). */
  readonly touched: boolean;
  /** The unit's facts for its root's rules (`Dialect.checkUnit`), when it ran. */
  readonly facts: UnitFacts | null;
}

/**
 * The units of a `validate` run, flat so that they are cheap to copy to a worker: one string per column, NUL
 * between items (a path may hold a line feed, never a NUL).
 */
export interface UnitTaskInput {
  /** Absolute paths, NUL-separated. */
  readonly dirs: string;
  /** Display paths, NUL-separated. */
  readonly files: string;
  /** Dialect ids, NUL-separated. */
  readonly dialects: string;
  /** One character per unit: '1' when it is walked, '0' when not (node_modules, .git). */
  readonly walk: string;
  /** JSON of the files named inside units: [unit index, path, display path, how (validate-task.ts)]. */
  readonly named: string;
  readonly strict: boolean;
  readonly dialect: string | undefined;
  readonly cwd: string;
  /** True in a worker thread: its results are sent, so their entries are packed (`PackedEntries`). */
  readonly sendable?: boolean;
}

export function unitTaskInput(units: readonly UnitRef[], opts: CheckOptions, cwd: string): UnitTaskInput {
  const named: [number, string, string, number][] = [];
  units.forEach((u, i) => {
    for (const r of u.refs) named.push([i, r.path, r.file, howOf(r)]);
  });
  return {
    dirs: units.map((u) => u.dir).join('\0'),
    files: units.map((u) => u.file).join('\0'),
    dialects: units.map((u) => u.dialect).join('\0'),
    walk: units.map((u) => (u.walk ? '1' : '0')).join(''),
    named: JSON.stringify(named),
    strict: opts.strict ?? false,
    dialect: opts.dialect,
    cwd,
  };
}

/**
 * The pipeline's unit of work: walks one unit (a team run directory), checks each file (read, parse, schema,
 * per-document rules), runs the unit's tree rules on the records (and those of any root inside it), merges
 * their findings, and drops the documents: only the report's entries leave.
 */
export const validateUnitTask: PoolTask<UnitTaskInput, UnitResult> = {
  name: 'validate-unit',
  start(input) {
    const dirs = input.dirs.split('\0');
    const files = input.files.split('\0');
    const dialectIds = input.dialects.split('\0');
    const named = new Map<number, FileRef[]>();
    for (const [i, path, file, how] of JSON.parse(input.named) as [number, string, string, number][]) {
      const list = named.get(i) ?? [];
      list.push({ path, file, explicit: how === 49, listedAsFile: how === 50 });
      named.set(i, list);
    }
    const opts = { strict: input.strict, dialect: input.dialect };
    const check = fileChecker(opts, false);
    // What the units this thread checks in this pass share (Dialect.checkUnit's `pass`).
    const pass = new Map<string, unknown>();
    return (from, to) => {
      const out: UnitResult[] = [];
      for (let i = from; i < to; i++) {
        const unit = {
          dir: dirs[i]!,
          file: files[i]!,
          dialect: dialectIds[i] as DialectId,
          walk: input.walk[i] === '1',
          refs: named.get(i) ?? [],
        };
        out.push(checkUnitDir(unit, check, opts, input.cwd, pass, input.sendable === true));
      }
      return out;
    };
  },
};

/** Told, on this thread, how many files each unit holds before they are checked (`watchUnitFiles`). */
let unitFilesWatch: ((files: number) => void) | undefined;

/**
 * Has `watch` told the number of files of each unit this thread checks from now on, before they are checked;
 * returns what stops it (validate-files: a brief input that turns out to be long).
 */
export function watchUnitFiles(watch: (files: number) => void): () => void {
  const before = unitFilesWatch;
  unitFilesWatch = watch;
  return () => {
    unitFilesWatch = before;
  };
}

function checkUnitDir(
  unit: UnitRef,
  check: ReturnType<typeof fileChecker>,
  opts: { strict: boolean; dialect: string | undefined },
  cwd: string,
  pass: Map<string, unknown>,
  sendable: boolean,
): UnitResult {
  const listings: Listings = new Map();
  const refs = unitRefs(unit, listings);
  unitFilesWatch?.(refs.files.length);
  // What the tree rules read of each document (its record: a run of 100k events is held as records, not whole),
  // by folder in the walk's order: a folder's files sort by name, as a loader lists them, so the records of a
  // folder asked for at once (`documents`) are matched by position, without a path hashed per file.
  const byFolder = new Map<string, Folder>();
  let folder: Folder | undefined;
  let folderDir = '';
  const results: FileResult[] = [];
  const nested = new Map<string, { dialect: Dialect; root: string }>();
  const own = getDialect(unit.dialect)!;
  const ownRoot = dirname(unit.dir);
  let touched = false;
  let skipped = 0;
  // A root depends on the file's folder and kind (Dialect.rootOf): asked once per run of files sharing both.
  let lastDir = '';
  let lastKind: string | undefined;
  let lastRoot: string | undefined;
  // Indexed loops on the per-file paths: without the optimizing compiler each step of a for-of allocates.
  const files = refs.files;
  for (let i = 0; i < files.length; i++) {
    const ref = files[i]!;
    const doc = check(ref.path, ref.file, howOf(ref)) as DocRecord | null;
    if (!doc) {
      skipped++;
      continue;
    }
    results.push({ file: doc.file, kind: doc.kind, findings: doc.findings });
    const slash = doc.path.lastIndexOf(sep);
    if (slash + 1 !== folderDir.length || !doc.path.startsWith(folderDir)) {
      folderDir = doc.path.slice(0, slash + 1);
      const key = doc.path.slice(0, slash);
      folder = byFolder.get(key);
      if (!folder) {
        folder = { records: [], byPath: undefined };
        byFolder.set(key, folder);
      }
    }
    folder!.records.push(doc);
    if (!doc.kind) continue;
    const dialect = dialectOf(doc.kind);
    if (!dialect?.checkTree || !dialect.rootOf) continue;
    if (doc.kind !== lastKind || slash + 1 !== lastDir.length || !doc.path.startsWith(lastDir)) {
      lastDir = doc.path.slice(0, slash + 1);
      lastKind = doc.kind;
      lastRoot = dialect.rootOf(doc.path, doc.kind);
    }
    const root = lastRoot;
    if (root === undefined) continue;
    if (dialect === own && root === ownRoot) touched = true;
    else nested.set(`${dialect.id}\0${root}`, { dialect, root });
  }
  const named: CheckOptions = { ...(opts.strict ? { strict: true } : {}), sniff: true };
  const namedOpts = opts.dialect ? { ...named, dialect: opts.dialect } : named;
  const others = new Map<string, CheckedDocument>();
  // Display paths are asked for only where a tree rule reports (a few files of a unit): mapped on first use.
  let shown: Map<string, string> | undefined;
  const display = (abs: string) => {
    shown ??= new Map(refs.files.map((r) => [r.path, r.file]));
    return shown.get(abs) ?? displayPath(abs, cwd);
  };
  const other = (absPath: string): CheckedDocument => {
    let doc = others.get(absPath);
    if (!doc) {
      doc = checkDocument(absPath, display(absPath), namedOpts) ?? unreadable(absPath, display(absPath));
      others.set(absPath, doc);
    }
    return doc;
  };
  const document = (absPath: string): CheckedDocument => {
    const f = byFolder.get(absPath.slice(0, absPath.lastIndexOf(sep)));
    const at = f ? indexIn(f, absPath) : -1;
    return at >= 0 ? documentOf(f!.records[at]!) : other(absPath);
  };
  const ctx: TreeContext = {
    document,
    documents(absDir, absPaths) {
      const recs = byFolder.get(absDir)?.records;
      const out = new Array<CheckedDocument>(absPaths.length);
      // In step with the folder's records while they are the paths asked for (the usual case: every document of
      // the folder, in name order); a path out of step is looked up by itself.
      let j = 0;
      for (let i = 0; i < absPaths.length; i++) {
        const p = absPaths[i]!;
        if (recs !== undefined && j < recs.length && recs[j]!.path === p) out[i] = documentOf(recs[j++]!);
        else out[i] = document(p);
      }
      return out;
    },
    display,
    listing: (dir) => listings.get(dir),
  };
  const extra = new Map<string, Finding[]>();
  let facts: UnitFacts | null = null;
  if (touched) {
    const r = own.checkUnit!(unit.dir, ctx, pass);
    addByFile(extra, r.findings);
    facts = r.facts;
  }
  for (const { dialect, root } of nested.values()) addByFile(extra, dialect.checkTree!(root, ctx));
  const entries = withTreeFindings(results, extra);
  return { entries: sendable ? packEntries(entries) : entries, skipped, touched, facts };
}

/** The records of one folder of a unit, in the order they were checked. */
interface Folder {
  readonly records: DocRecord[];
  /** Each record's index by path, made on the first lookup by path in a folder of more than a few records. */
  byPath: Map<string, number> | undefined;
}

/** The index of the record of `path` in its folder, or -1. */
function indexIn(f: Folder, path: string): number {
  const recs = f.records;
  if (recs.length <= 8) {
    for (let i = 0; i < recs.length; i++) if (recs[i]!.path === path) return i;
    return -1;
  }
  if (!f.byPath) {
    f.byPath = new Map();
    for (let i = 0; i < recs.length; i++) f.byPath.set(recs[i]!.path, i);
  }
  return f.byPath.get(path) ?? -1;
}

/** The files of a unit, sorted by display path, each once (named ones as named), and the listings made. */
function unitRefs(unit: UnitRef, listings: Listings): { files: FileRef[] } {
  const found: FileRef[] = [];
  if (unit.walk) {
    // The display path of each file is the end of its path when the unit's is (collectFiles' `cut`).
    const cut =
      sep !== '/'
        ? -1
        : unit.dir === unit.file
          ? 0
          : unit.dir.endsWith(`/${unit.file}`)
            ? unit.dir.length - unit.file.length
            : -1;
    walkFiles(unit.dir, `${unit.file}/`, found, listings, cut);
  }
  if (unit.refs.length > 0) {
    const byPath = new Map(found.map((r) => [r.path, r]));
    for (const r of unit.refs) if (r.explicit || !byPath.has(r.path)) byPath.set(r.path, r);
    return { files: [...byPath.values()].sort(byFile) };
  }
  return { files: found.sort(byFile) };
}

export function unreadable(path: string, file: string): CheckedDocument {
  return {
    path,
    file,
    kind: undefined,
    text: undefined,
    value: undefined,
    usable: false,
    sourceMap: undefined,
    findings: [],
  };
}

/**
 * Report entries as one string of display paths, one of kinds, and the findings of the few files that have any:
 * a structured clone of a run's 400 entries as objects costs several times more, on both threads.
 */
export interface PackedEntries {
  /** Display paths, NUL-separated. */
  readonly files: string;
  /** Kinds, NUL-separated ('' for none). */
  readonly kinds: string;
  /** [index, findings] of each entry that has findings. */
  readonly findings: readonly (readonly [number, readonly Finding[]])[];
}

export function packEntries(entries: readonly FileResult[]): PackedEntries {
  const findings: [number, readonly Finding[]][] = [];
  let files = '';
  let kinds = '';
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    files += i === 0 ? e.file : `\0${e.file}`;
    kinds += i === 0 ? (e.kind ?? '') : `\0${e.kind ?? ''}`;
    if (e.findings.length > 0) findings.push([i, e.findings]);
  }
  return { files, kinds, findings };
}

const NONE: readonly Finding[] = Object.freeze([]);

/** A unit's entries as a result holds them: packed by a worker, or as they are from this thread. */
export function unpackEntries(packed: PackedEntries | FileResult[]): FileResult[] {
  if (isEntryList(packed)) return packed;
  if (packed.files === '' && packed.findings.length === 0) return [];
  const files = packed.files.split('\0');
  const kinds = packed.kinds.split('\0');
  const out: FileResult[] = new Array(files.length);
  let k = 0;
  for (let i = 0; i < files.length; i++) {
    const at = packed.findings[k];
    let findings = NONE;
    if (at !== undefined && at[0] === i) {
      findings = at[1];
      k++;
    }
    out[i] = { file: files[i]!, kind: kinds[i] || undefined, findings };
  }
  return out;
}

const isEntryList = (e: PackedEntries | FileResult[]): e is FileResult[] => Array.isArray(e);
