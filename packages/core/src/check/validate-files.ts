import { dirname, sep } from 'node:path';
import type { CheckedDocument, Dialect, TreeContext, UnitFacts } from '../dialects/dialect.js';
import { getDialect } from '../dialects/registry.js';
import { compareFindings, type Finding } from '../findings/finding.js';
import {
  type PoolOptions,
  poolChunks,
  poolIdleWorkers,
  poolMap,
  poolRelease,
  poolThreads,
  warmPool,
} from '../pool/pool.js';
import { type CheckOptions, checkDocument } from './check-document.js';
import { type Collected, collectFiles, displayPath, type FileRef } from './collect-files.js';
import {
  addByFile,
  byFile,
  dedupe,
  type FileResult,
  indexOfFile,
  withTreeFindings,
} from './merge-findings.js';
import { type DocRecord, documentOf, type SentRecord, withRef } from './records.js';
import { fileChecker, howOf, validateTask, validateTaskInput } from './validate-task.js';
import {
  type UnitResult,
  unitTaskInput,
  unpackEntries,
  unreadable,
  validateUnitTask,
  watchUnitFiles,
} from './validate-unit.js';

export type { FileResult } from './merge-findings.js';

/**
 * Below this many files per thread, the per-file pass of files outside units runs on one thread. Measured on the
 * 2-core machine of BENCHMARKS.md (team files, CKPT_THREADS=1 against 2, interleaved): 10k and 20k files take the
 * same wall time with a worker and ~20% more CPU; 40k files ~10% less wall time, 100k ~15%.
 */
export const VALIDATE_MIN_FILES_PER_THREAD = 16_000;

/**
 * Below this many units (team runs) per thread, units are checked on this thread alone; from twice as many, this
 * thread and a worker check them (on 2 cores). Measured on the 2-core machine of BENCHMARKS.md (team runs of 400
 * files, interleaved, wave 5, load 10-15): 10k files (25 runs) cost +0.4 s of CPU on two threads (each warms up
 * its own JIT) for no gain in time; 20k (51 runs) 0.78x one thread's time, 40k 0.94x; at 100k the load hid any
 * gain (wave 4, load ~2.5: 40k 0.89x, 100k 0.74x). Wave 7: 10k on two threads without the optimizing compiler
 * (a brief input, `LargeInput.brief`) costs about one thread's CPU, but a worker's ~15 MB put its peak RSS at
 * 1.47-1.54x the floor's (target 1.5x).
 */
export const VALIDATE_MIN_UNITS_PER_THREAD = 24;

/**
 * VALIDATE_MIN_UNITS_PER_THREAD for a brief input (`LargeInput.brief`) when a worker has already started (the CLI
 * starts one at its first line for a directory: `adoptPoolWorker`): its ~0.1 s bootstrap then overlaps this
 * thread's start-up and walk instead of following them, so 10k team files (25 runs) take two threads.
 */
export const VALIDATE_MIN_UNITS_PER_THREAD_STARTED = 12;

/**
 * Up to this many units (and fewer than VALIDATE_MIN_FILES_PER_THREAD files outside units) a large input is brief
 * (`LargeInput.brief`): ~25k team files, done in about a second on 2 cores.
 */
export const VALIDATE_BRIEF_UNITS = 64;

/**
 * A brief input (`LargeInput.brief`) is long after all once this thread is about to check more files of units than
 * this (`ValidateOptions.onLongInput`): a unit may hold 100k files.
 */
export const VALIDATE_BRIEF_FILES = 25_000;

/** What `ValidateOptions.onLargeInput` is told of the input. */
export interface LargeInput {
  /**
   * The input is over in about a second (VALIDATE_BRIEF_UNITS): too soon for V8's optimizing compiler to pay for
   * itself (wave 7: on 10k team files one thread takes ~25% less CPU without it), which the caller may turn off
   * for the run.
   */
  readonly brief: boolean;
  /** The threads that will check it (this one included): more than one when workers take part. */
  readonly threads: number;
}

/**
 * The young generation of a worker checking units, in MB. A unit's documents die young, and what lives while
 * the unit is checked (its records) is small: 6 MB (2 MB semi-spaces) costs no measurable time on 100k team
 * files, against ~48 MB each at V8's default.
 */
export const VALIDATE_WORKER_YOUNG_MB = 6;

/**
 * From this many files outside units (or any unit: a team run may hold 100k events) an input is large
 * (`ValidateOptions.onLargeInput`): a one-file check or a handful of files is not.
 */
export const VALIDATE_LARGE_INPUT_FILES = 1000;

/** Version of the JSON document `ckpt validate --reporter json` prints. */
export const VALIDATION_FORMAT_VERSION = 1;

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

/** A report as it is made: `files` yields each file's result in report order, once. */
export interface ValidationStream {
  readonly formatVersion: number;
  readonly files: Iterable<FileResult>;
  /** The counts so far: the report's once `files` has been iterated to its end. */
  readonly summary: ValidationSummary;
}

export interface ValidateOptions extends CheckOptions {
  /** The directory paths are resolved against and shown relative to (default: `process.cwd()`). */
  readonly cwd?: string;
  /** Called as files (outside units) and units are done, for progress output. */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * How the work is spread over worker threads (default: `os.availableParallelism()` threads; one thread below
   * VALIDATE_MIN_UNITS_PER_THREAD units and VALIDATE_MIN_FILES_PER_THREAD other files per thread). The report is
   * the same for any setting.
   */
  readonly pool?: PoolOptions;
  /**
   * Called once, before any file is read or worker started, when the input is large (a unit, or
   * VALIDATE_LARGE_INPUT_FILES files outside units): e.g. to size the heap for a long run. The report does not
   * depend on it.
   */
  readonly onLargeInput?: (input: LargeInput) => void;
  /**
   * Called at most once, after `onLargeInput` told a brief input, when it turns out not to be: this thread is about
   * to check a unit that takes it over VALIDATE_BRIEF_FILES files (e.g. one run of 100k events). The report does not
   * depend on it.
   */
  readonly onLongInput?: () => void;
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

/** Validates files and directories (`collectFiles` with units) and returns the whole report. */
export function validatePaths(paths: readonly string[], opts: ValidateOptions = {}): ValidationReport {
  const stream = validateCollected(collectFiles(paths, opts.cwd, { units: true }), opts);
  const files = [...stream.files];
  return { formatVersion: stream.formatVersion, files, summary: stream.summary };
}

/**
 * Validates what `collectFiles` found, as a stream of results in report order (sorted by file). A unit (a team
 * run directory) is the unit of work: one thread walks it, checks its files (read, parse, schema, per-document
 * rules), runs its tree rules and merges their findings, then drops its documents; units are spread over worker
 * threads (`poolChunks`) and their results written out in order as they come, so that neither the documents nor
 * the report are ever held whole. Files outside units are checked first (pooled when many), their trees' rules
 * run here. Only the few facts that span units (e.g. which run `current` names) wait for a whole root. Files
 * that are not checkpoints are skipped and counted. The report does not depend on the number of threads.
 */
export function validateCollected(collected: Collected, opts: ValidateOptions = {}): ValidationStream {
  const counts = { files: 0, valid: 0, invalid: 0, skipped: 0, errors: 0, warnings: 0, infos: 0 };
  return {
    formatVersion: VALIDATION_FORMAT_VERSION,
    files: results(collected, opts, counts),
    get summary(): ValidationSummary {
      return { ...counts, valid: counts.files - counts.invalid };
    },
  };
}

type Counts = {
  files: number;
  invalid: number;
  skipped: number;
  errors: number;
  warnings: number;
  infos: number;
};

/** What the rules of a root with units wait for. */
interface RootState {
  readonly dialect: Dialect;
  readonly root: string;
  /** Its units, and how many of them are final (their entries known for good). */
  total: number;
  final: number;
  /** Whether a document belongs to it (its tree rules then apply). */
  touched: boolean;
  readonly facts: Map<string, UnitFacts>;
  /** The first display path its own rules may add findings to (its entries that are not units), if any. */
  readonly barrier: string | undefined;
  complete: boolean;
}

function* results(
  c: Collected,
  opts: ValidateOptions,
  counts: Counts,
): Generator<FileResult, void, undefined> {
  const check: CheckOptions = {
    ...(opts.strict ? { strict: true } : {}),
    ...(opts.dialect ? { dialect: opts.dialect } : {}),
  };
  const named: CheckOptions = { ...check, sniff: true };
  const total = c.files.length + c.units.length;
  const large = c.units.length > 0 || c.files.length >= VALIDATE_LARGE_INPUT_FILES;
  const brief = c.units.length <= VALIDATE_BRIEF_UNITS && c.files.length < VALIDATE_MIN_FILES_PER_THREAD;
  const unitPool: PoolOptions = {
    minItemsPerThread:
      brief && poolIdleWorkers() > 0 ? VALIDATE_MIN_UNITS_PER_THREAD_STARTED : VALIDATE_MIN_UNITS_PER_THREAD,
    youngGenerationMb: VALIDATE_WORKER_YOUNG_MB,
    ...opts.pool,
    chunkSize: 1,
  };
  const threads = Math.max(
    c.units.length > 0 ? poolThreads(c.units.length, unitPool) : 1,
    poolThreads(c.files.length, { minItemsPerThread: VALIDATE_MIN_FILES_PER_THREAD, ...opts.pool }),
  );
  // A worker started ahead that nothing here will use is stopped now (it would only take CPU and memory).
  if (threads === 1) poolRelease();
  if (large) opts.onLargeInput?.({ brief, threads });
  let unwatch: (() => void) | undefined;
  if (large && brief && opts.onLongInput && c.units.length > 0) {
    let seen = c.files.length;
    const long = opts.onLongInput;
    unwatch = watchUnitFiles((n) => {
      seen += n;
      if (seen <= VALIDATE_BRIEF_FILES) return;
      unwatch?.();
      unwatch = undefined;
      long();
    });
  }
  try {
    yield* unitResults(c, opts, counts, check, named, total, unitPool);
  } finally {
    unwatch?.();
  }
}

/** `results` once the input is told large or not: the files outside units, then the units, in report order. */
function* unitResults(
  c: Collected,
  opts: ValidateOptions,
  counts: Counts,
  check: CheckOptions,
  named: CheckOptions,
  total: number,
  unitPool: PoolOptions,
): Generator<FileResult, void, undefined> {
  let done = 0;
  // Workers load their modules while this thread checks the files outside units.
  if (c.units.length > 0) {
    const threads = poolThreads(c.units.length, unitPool);
    if (threads > 1) warmPool(unitPool.callerWorks === false ? threads + 1 : threads, unitPool);
  }
  const roots = rootStates(c);
  const display = displayer(c);
  const { buf, skipped } = looseResults(c.files, check, named, opts, roots, c.listings, display, (n) => {
    done += n;
    opts.onProgress?.(done, total);
  });
  counts.skipped += skipped;
  let head = 0;
  const ctx = mainContext(named, display, c);
  const pass = new Map<string, unknown>();
  const emit = function* (frontier: string | undefined): Generator<FileResult, void, undefined> {
    while (head < buf.length && (frontier === undefined || buf[head]!.file < frontier)) {
      const r = buf[head]!;
      buf[head++] = undefined as unknown as FileResult;
      count(counts, r);
      yield r;
    }
    if (head > 4096 && head * 2 > buf.length) {
      buf.splice(0, head);
      head = 0;
    }
  };
  const units = c.units;
  const arrived: (UnitResult | undefined)[] = new Array(units.length);
  let next = 0;
  let firstOpen = 0;
  const finalize = () => {
    for (; firstOpen < units.length; firstOpen++) {
      const r = arrived[firstOpen];
      if (!r) return;
      const unit = units[firstOpen]!;
      const st = roots.byUnit[firstOpen]!;
      let entries = unpackEntries(r.entries);
      if (!r.touched && st.touched) {
        // Its root is touched by another unit's documents: its tree rules apply after all (seldom: none of
        // its own documents belong to the root).
        const checked = st.dialect.checkUnit!(unit.dir, ctx, pass);
        st.facts.set(unit.dir, checked.facts);
        const extra = new Map<string, Finding[]>();
        addByFile(extra, checked.findings);
        entries = withTreeFindings(entries, extra);
      } else if (!r.touched && !allArrived(st, firstOpen)) return;
      arrived[firstOpen] = undefined;
      insertSorted(buf, head, entries);
      st.final++;
      if (st.final === st.total) {
        st.complete = true;
        if (st.touched) mergeInto(buf, head, st.dialect.checkTree!(st.root, ctx, st.facts));
      }
    }
  };
  /** Whether every unit of a root has arrived (units of a root come one after another). */
  const allArrived = (st: RootState, from: number) => {
    for (let k = from; k < units.length && roots.byUnit[k] === st; k++) if (!arrived[k]) return false;
    return true;
  };
  const frontier = () => {
    let f: string | undefined = firstOpen < units.length ? units[firstOpen]!.file : undefined;
    for (const st of roots.all)
      if (!st.complete && st.barrier !== undefined && (f === undefined || st.barrier < f)) f = st.barrier;
    return f;
  };
  if (units.length > 0) {
    const input = unitTaskInput(units, check, c.cwd);
    for (const [r] of poolChunks(validateUnitTask, input, units.length, unitPool)) {
      const i = next++;
      arrived[i] = r!;
      counts.skipped += r!.skipped;
      const st = roots.byUnit[i]!;
      if (r!.touched) {
        st.touched = true;
        st.facts.set(units[i]!.dir, r!.facts!);
      }
      finalize();
      yield* emit(frontier());
      opts.onProgress?.(++done, total);
    }
  }
  finalize();
  yield* emit(undefined);
}

function count(counts: Counts, r: FileResult): void {
  counts.files++;
  let bad = false;
  for (const x of r.findings) {
    if (x.severity === 'error') {
      counts.errors++;
      bad = true;
    } else if (x.severity === 'warning') counts.warnings++;
    else counts.infos++;
  }
  if (bad) counts.invalid++;
}

/** The root of each unit, and what it waits for. */
function rootStates(c: Collected): { all: RootState[]; byUnit: RootState[]; byKey: Map<string, RootState> } {
  const byKey = new Map<string, RootState>();
  const byUnit: RootState[] = [];
  const unitDirs = new Set(c.units.map((u) => u.dir));
  for (const u of c.units) {
    const root = dirname(u.dir);
    const key = `${u.dialect}\0${root}`;
    let st = byKey.get(key);
    if (!st) {
      let barrier: string | undefined;
      const base = root.endsWith(sep) ? root : root + sep;
      for (const e of c.listings.get(root) ?? []) {
        if (unitDirs.has(base + e.name)) continue;
        const shown = displayPath(base + e.name, c.cwd);
        if (barrier === undefined || shown < barrier) barrier = shown;
      }
      st = {
        dialect: getDialect(u.dialect)!,
        root,
        total: 0,
        final: 0,
        touched: false,
        facts: new Map(),
        barrier,
        complete: false,
      };
      byKey.set(key, st);
    }
    st.total++;
    byUnit.push(st);
  }
  return { all: [...byKey.values()], byUnit, byKey };
}

/** How a path is shown: as the walk showed it when it listed it, else relative to the cwd. */
function displayer(c: Collected): (abs: string) => string {
  let shown: Map<string, string> | undefined;
  return (abs) => {
    shown ??= new Map(c.files.map((r) => [r.path, r.file]));
    return shown.get(abs) ?? displayPath(abs, c.cwd);
  };
}

/** A tree context for rules run on this thread after their documents were dropped: files are checked again. */
function mainContext(named: CheckOptions, display: (abs: string) => string, c: Collected): TreeContext {
  const others = new Map<string, CheckedDocument>();
  return {
    document(absPath) {
      let doc = others.get(absPath);
      if (!doc) {
        doc = checkDocument(absPath, display(absPath), named) ?? unreadable(absPath, display(absPath));
        others.set(absPath, doc);
      }
      return doc;
    },
    display,
    listing: (dir) => c.listings.get(dir),
  };
}

/**
 * The files outside units: the per-file pass (pooled when there are many), then the tree rules of the roots
 * their documents belong to, except roots with units (those wait for their units: the documents only mark them
 * touched). Returns their results sorted, the start of the report's buffer.
 */
function looseResults(
  refs: readonly FileRef[],
  check: CheckOptions,
  named: CheckOptions,
  opts: ValidateOptions,
  roots: { byKey: Map<string, RootState> },
  listings: Collected['listings'],
  display: (abs: string) => string,
  progress: (n: number) => void,
): { buf: FileResult[]; skipped: number } {
  if (refs.length === 0) return { buf: [], skipped: 0 };
  const pool = { minItemsPerThread: VALIDATE_MIN_FILES_PER_THREAD, ...opts.pool };
  let records: (DocRecord | SentRecord | null)[];
  if (poolThreads(refs.length, pool) === 1) {
    const run = fileChecker({ strict: check.strict ?? false, dialect: check.dialect }, false);
    records = [];
    for (let i = 0; i < refs.length; i++) {
      const r = refs[i]!;
      records.push(run(r.path, r.file, howOf(r)));
      progress(1);
    }
  } else {
    records = poolMap(validateTask, validateTaskInput(refs, check, false), refs.length, pool);
    progress(refs.length);
  }
  const byPath = new Map<string, DocRecord>();
  const results: FileResult[] = [];
  const own = new Map<string, { dialect: Dialect; root: string }>();
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
    const dialect = getDialect(rec.kind.slice(0, rec.kind.indexOf('/')));
    const root = dialect?.checkTree ? dialect.rootOf?.(rec.path, rec.kind) : undefined;
    if (root === undefined) continue;
    const key = `${dialect!.id}\0${root}`;
    const withUnits = roots.byKey.get(key);
    if (withUnits) withUnits.touched = true;
    else if (!own.has(key)) own.set(key, { dialect: dialect!, root });
  }
  records = [];
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
    display: (abs) => byPath.get(abs)?.file ?? display(abs),
    listing: (dir) => listings.get(dir),
    release(absPaths) {
      for (const p of absPaths) if (!byPath.delete(p)) others.delete(p);
    },
  };
  const extra = new Map<string, Finding[]>();
  for (const { dialect, root } of own.values()) addByFile(extra, dialect.checkTree!(root, ctx));
  return { buf: withTreeFindings(results, extra), skipped };
}

/** Adds sorted entries to the sorted buffer (from `head` on). */
function insertSorted(buf: FileResult[], head: number, entries: readonly FileResult[]): void {
  if (entries.length === 0) return;
  if (buf.length === head || buf[buf.length - 1]!.file < entries[0]!.file) {
    for (let i = 0; i < entries.length; i++) buf.push(entries[i]!);
    return;
  }
  const merged = buf.slice(head).concat(entries).sort(byFile);
  buf.length = head;
  for (let i = 0; i < merged.length; i++) buf.push(merged[i]!);
}

/** Merges a root's own findings into the buffer's entries (a file not there yet is added, without a kind). */
function mergeInto(buf: FileResult[], head: number, findings: readonly Finding[]): void {
  const extra = new Map<string, Finding[]>();
  addByFile(extra, findings);
  const added: FileResult[] = [];
  for (const [file, list] of extra) {
    const at = indexOfFile(buf, file, head);
    const prev = at >= 0 ? buf[at] : undefined;
    const merged = dedupe([...(prev?.findings ?? []), ...list]);
    const entry = {
      file,
      kind: prev?.kind,
      findings: merged.length > 1 ? merged.sort(compareFindings) : merged,
    };
    if (prev) buf[at] = entry;
    else added.push(entry);
  }
  if (added.length > 0) insertSorted(buf, head, added.sort(byFile));
}
