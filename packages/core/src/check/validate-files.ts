import type { CheckedDocument, Dialect, TreeContext } from '../dialects/dialect.js';
import { getDialect } from '../dialects/registry.js';
import { compareFindings, type Finding } from '../findings/finding.js';
import { type PoolOptions, poolMap, poolThreads } from '../pool/pool.js';
import { type CheckOptions, checkDocument } from './check-document.js';
import type { FileRef } from './collect-files.js';
import { type DocRecord, documentOf, type SentRecord, withRef } from './records.js';
import { fileChecker, howOf, validateTask, validateTaskInput } from './validate-task.js';

/**
 * Below this many files per thread, the per-file pass runs on one thread. Measured on the 2-core machine of
 * BENCHMARKS.md (team files, CKPT_THREADS=1 against 2, interleaved): 10k and 20k files take the same wall time
 * with a worker and ~20% more CPU (its start-up, a second JIT warm-up, V8's GC helpers losing the idle core);
 * 40k files ~10% less wall time, 100k ~15%.
 */
export const VALIDATE_MIN_FILES_PER_THREAD = 16_000;

/** Version of the JSON document `ckpt validate --reporter json` prints. */
export const VALIDATION_FORMAT_VERSION = 1;

export interface FileResult {
  readonly file: string;
  readonly kind: string | undefined;
  readonly findings: readonly Finding[];
}

export interface ValidationSummary {
  readonly files: number;
  readonly valid: number;
  readonly invalid: number;
  readonly skipped: number;
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
}

export interface ValidationReport {
  readonly formatVersion: number;
  readonly files: readonly FileResult[];
  readonly summary: ValidationSummary;
}

export interface ValidateOptions extends CheckOptions {
  /** Called after each file, for progress output (with worker threads: once, at the end of the per-file pass). */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * How the per-file pass uses worker threads (default: `os.availableParallelism()` threads, and one thread below
   * 16,000 files per thread, VALIDATE_MIN_FILES_PER_THREAD). The report is the same for any setting.
   */
  readonly pool?: PoolOptions;
  /** The directories `collectFiles` listed (its `listings`): tree rules read these instead of listing again. */
  readonly listings?: ReadonlyMap<string, readonly import('node:fs').Dirent[]>;
}

/** A context that serves tree rules the documents already checked, and checks any other file once. */
export function createTreeContext(
  opts: CheckOptions,
  display: (abs: string) => string,
  known = new Map<string, CheckedDocument>(),
): TreeContext & { known: Map<string, CheckedDocument> } {
  return {
    known,
    document(absPath) {
      let doc = known.get(absPath);
      if (!doc) {
        doc =
          checkDocument(absPath, display(absPath), { ...opts, sniff: true }) ??
          unreadable(absPath, display(absPath));
        known.set(absPath, doc);
      }
      return doc;
    },
    display,
    ...(opts.confineTo !== undefined ? { confineTo: opts.confineTo } : {}),
  };
}

/**
 * Validates files: the per-file pass (read, parse, schema, per-document rules) makes one compact record per file
 * (`DocRecord`: findings, and what its dialect's tree rules read; the document is dropped there), spread over
 * worker threads when there are many files (`poolMap`); then the tree rules of every dialect root the files
 * belong to run on those records. Files that are not checkpoints are skipped and counted. Findings are sorted per
 * file. The report does not depend on the number of threads.
 */
export function validateFiles(refs: readonly FileRef[], opts: ValidateOptions = {}): ValidationReport {
  const check: CheckOptions = {
    ...(opts.strict ? { strict: true } : {}),
    ...(opts.dialect ? { dialect: opts.dialect } : {}),
  };
  const named: CheckOptions = { ...check, sniff: true };
  const pool = { minItemsPerThread: VALIDATE_MIN_FILES_PER_THREAD, ...opts.pool };
  const threads = poolThreads(refs.length, pool);
  let records: (DocRecord | SentRecord | null)[];
  if (threads === 1) {
    // One thread: the task's checker on the refs themselves (no flat copy of 100k paths), with progress output.
    const run = fileChecker({ strict: check.strict ?? false, dialect: check.dialect }, false);
    records = [];
    for (let i = 0; i < refs.length; i++) {
      const r = refs[i]!;
      records.push(run(r.path, r.file, howOf(r)));
      opts.onProgress?.(i + 1, refs.length);
    }
  } else {
    records = poolMap(validateTask, validateTaskInput(refs, check, false), refs.length, pool);
    opts.onProgress?.(refs.length, refs.length);
  }
  const byPath = new Map<string, DocRecord>();
  const results: FileResult[] = [];
  const roots = new Map<string, string>();
  const dialectOf = new Map<string, Dialect | undefined>();
  let last: { dialect: Dialect; root: string } | undefined;
  let skipped = 0;
  for (let i = 0; i < records.length; i++) {
    const sent = records[i];
    if (!sent) {
      skipped++;
      continue;
    }
    const rec = withRef(sent, refs[i]!);
    results.push({ file: rec.file, kind: rec.kind, findings: rec.findings });
    byPath.set(rec.path, rec);
    if (!rec.kind) continue;
    let dialect = dialectOf.get(rec.kind);
    if (dialect === undefined && !dialectOf.has(rec.kind)) {
      dialect = getDialect(rec.kind.slice(0, rec.kind.indexOf('/')));
      dialectOf.set(rec.kind, dialect);
    }
    const root = dialect?.checkTree ? dialect.rootOf?.(rec.path, rec.kind) : undefined;
    if (root === undefined) continue;
    // Files of one root come together (sorted refs): the root is looked up once per run of them.
    if (last !== undefined && last.dialect === dialect && last.root === root) continue;
    last = { dialect: dialect!, root };
    const key = `${dialect!.id}\0${root}`;
    if (!roots.has(key)) roots.set(key, root);
  }
  records = [];
  const base = refs[0] ? { abs: refs[0].path, shown: refs[0].file } : undefined;
  let displayOf: Map<string, string> | undefined;
  const display = (abs: string) => {
    const rec = byPath.get(abs);
    if (rec) return rec.file;
    displayOf ??= new Map(refs.map((r) => [r.path, r.file]));
    return displayOf.get(abs) ?? relativeLike(abs, base);
  };
  // Files the tree rules ask for that were not given (or were released): checked here, once.
  const others = new Map<string, CheckedDocument>();
  const ctx: TreeContext = {
    document(absPath) {
      const rec = byPath.get(absPath);
      if (rec) return documentOf(rec);
      let doc = others.get(absPath);
      if (!doc) {
        doc = checkDocument(absPath, display(absPath), named) ?? unreadable(absPath, display(absPath));
        others.set(absPath, doc);
      }
      return doc;
    },
    display,
    ...(opts.listings ? { listing: (dir: string) => opts.listings!.get(dir) } : {}),
    release(absPaths) {
      for (const p of absPaths) if (!byPath.delete(p)) others.delete(p);
    },
  };
  const extra = new Map<string, Finding[]>();
  for (const [key, root] of roots)
    for (const f of getDialect(key.slice(0, key.indexOf('\0')))!.checkTree!(root, ctx)) {
      const list = extra.get(f.file) ?? [];
      list.push(f);
      extra.set(f.file, list);
    }
  const files = withTreeFindings(results, extra);
  for (let i = 0; i < files.length; i++) {
    const r = files[i]!;
    if (r.findings.length > 1) files[i] = { ...r, findings: [...r.findings].sort(compareFindings) };
  }
  return { formatVersion: VALIDATION_FORMAT_VERSION, files, summary: summarize(files, skipped) };
}

/**
 * The per-file results (in the order of the refs) with the tree rules' findings merged in, one result per file,
 * sorted by file. Refs come sorted and once each (collectFiles): a file is then found by binary search instead of
 * keying 100k long paths in a map; otherwise by a map, the first result of a file keeping its place.
 */
function withTreeFindings(results: FileResult[], extra: Map<string, Finding[]>): FileResult[] {
  let files: FileResult[];
  if (strictlySorted(results)) {
    files = results;
    const added: FileResult[] = [];
    for (const [file, findings] of extra) {
      const at = indexOfFile(files, file);
      const prev = at >= 0 ? files[at] : undefined;
      const merged = { file, kind: prev?.kind, findings: dedupe([...(prev?.findings ?? []), ...findings]) };
      if (prev) files[at] = merged;
      else added.push(merged);
    }
    if (added.length === 0) return files;
    files = files.concat(added);
  } else {
    const perFile = new Map<string, FileResult>();
    for (const r of results) perFile.set(r.file, r);
    for (const [file, findings] of extra) {
      const prev = perFile.get(file);
      perFile.set(file, {
        file,
        kind: prev?.kind,
        findings: dedupe([...(prev?.findings ?? []), ...findings]),
      });
    }
    files = [...perFile.values()];
  }
  // Only files that tree findings added can be out of place: check before sorting (sorting 100k long paths with
  // common prefixes costs ~0.2 s).
  if (!sortedByFile(files)) files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return files;
}

function strictlySorted(files: readonly FileResult[]): boolean {
  for (let i = 1; i < files.length; i++) if (files[i - 1]!.file >= files[i]!.file) return false;
  return true;
}

/** The index of `file` in results sorted by file, or -1. */
function indexOfFile(files: readonly FileResult[], file: string): number {
  let lo = 0;
  let hi = files.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const f = files[mid]!.file;
    if (f === file) return mid;
    if (f < file) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function unreadable(path: string, file: string): CheckedDocument {
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

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const k = `${f.code}\0${f.pointer}\0${f.line}\0${f.column}\0${f.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Shows an absolute path the way the first checked file is shown (same prefix), for files found by tree rules. */
function relativeLike(abs: string, base: { abs: string; shown: string } | undefined): string {
  if (!base || base.abs === base.shown) return abs;
  const prefix = base.abs.slice(0, base.abs.length - base.shown.length);
  return abs.startsWith(prefix) ? abs.slice(prefix.length) : abs;
}

function sortedByFile(files: readonly FileResult[]): boolean {
  for (let i = 1; i < files.length; i++) if (files[i - 1]!.file > files[i]!.file) return false;
  return true;
}

function summarize(files: readonly FileResult[], skipped: number): ValidationSummary {
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  let invalid = 0;
  for (const f of files) {
    let bad = false;
    for (const x of f.findings) {
      if (x.severity === 'error') {
        errors++;
        bad = true;
      } else if (x.severity === 'warning') warnings++;
      else infos++;
    }
    if (bad) invalid++;
  }
  return { files: files.length, valid: files.length - invalid, invalid, skipped, errors, warnings, infos };
}
