#!/usr/bin/env node
'use strict';
// The `ckpt` command. It runs the self-contained build in dist/bundle/ (what the packed @ckpt/cli ships: the
// program, core, schemas, validators and the viewer, no dependencies). In the workspace, where tsc's modules sit
// in dist/ beside it, the bundle is used only while it is newer than what it was made from (a rebuilt @ckpt/core
// makes it stale) and the unbundled modules are loaded otherwise: correct, slower.
// `ckpt validate` with plain arguments skips commander and every other command's module (validate.cjs): CI runs
// it on every commit, often on one file, where startup is most of the time. Any other command, or arguments the
// fast path does not take, go to the full commander program (ES modules).
// This file is CommonJS (bin/package.json): an ES module entry starts Node's ESM loader (~7 ms) and, for each
// `import … from 'node:fs'`, builds the module's export facade, which loads fs's streams. The fast path's bundle
// is CommonJS too, compiled with a V8 code cache (see requireWithCodeCache).
const {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} = require('node:fs');
const { basename, dirname, isAbsolute, join } = require('node:path');
const { pathToFileURL } = require('node:url');

// A reader that closes the pipe early (`ckpt … | head`) is not an error: stop quietly, never with a stack trace.
// Attached when the stream is first used: building process.stdout/stderr loads several modules (~1.5 ms), and
// the validate fast path writes with fs.writeSync without them.
/** The streams (`stdout`, `stderr`) built so far: one never built holds nothing unwritten (see exitWhenWritten). */
const built = new Set();
for (const name of ['stdout', 'stderr']) {
  const quiet = (stream) =>
    stream.on('error', (e) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  const d = Object.getOwnPropertyDescriptor(process, name);
  if (d?.get && d.configurable) {
    let stream;
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: d.enumerable,
      get() {
        if (stream === undefined) {
          stream = quiet(d.get.call(process));
          built.add(name);
        }
        return stream;
      },
    });
  } else {
    quiet(process[name]);
    built.add(name);
  }
}

const dist = join(__dirname, '..', 'dist');
const Module = module.constructor;
/** The CommonJS files run by requireWithCodeCache, by path: their module and how to save their cache. */
const scripts = new Map();

/** What the fast path's workers are started with (setPoolWorker): this file runs the bundle's `servePool`. */
const POOL_WORKER = '--ckpt-pool-worker';
/** A pool worker's last argument when the input is large: it sets LARGE_INPUT_FLAGS too. */
const LARGE = '--large';
/** A pool worker's last argument when the input is large but brief: it sets BRIEF_INPUT_FLAGS too. */
const BRIEF = '--brief';
/** A pool worker's last argument when the input is brief and checked on several threads: POOLED_BRIEF_FLAGS. */
const POOLED_BRIEF = '--brief-pooled';
/** A pool worker's last argument when the input is long and checked on several threads: POOLED_LARGE_FLAGS. */
const POOLED_LARGE = '--large-pooled';
/** The last argument of the worker started before the input was known (startEarlyWorker). */
const EARLY = '--early';

/**
 * V8 flags for a large input (many files: `onLargeInput`), set once the bundle is compiled. `validate` allocates
 * short-lived documents and report text, so the heap can stay small at about the same CPU (BENCHMARKS.md, wave
 * 6: 100k team files 143 -> 95 MB with a worker, 120 -> 71 MB on one thread): the young generation keeps its
 * first size (1 MB semi-spaces; V8 grows them to 16 MB under steady allocation, ~40 MB of RSS), and the old
 * generation is collected once it has doubled (V8 lets it grow up to 4x when its collections are fast: ~25 MB
 * holding ~6 MB alive; +50% gave a run of 100k events, whose records stay alive, more collections for no less
 * RSS). Only GC sizing changes, never behaviour. Not for small inputs: they would only pay for more collections.
 */
const LARGE_INPUT_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=100'];
/** The same flags at V8's defaults: a code cache is made and read under these only (see withDefaultFlags). */
const DEFAULT_FLAGS = ['--semi-space-growth-factor=2', '--heap-growing-percent=0'];
/**
 * For a large input that is brief (core's `LargeInput.brief`: ~25k team files at most, about a second): no
 * optimizing compiler (TurboFan) either. It would spend ~0.2 s of CPU on code that has little left to run by then:
 * 10k team files on one thread take ~25% less CPU and ~4 MB less RSS without it (BENCHMARKS.md, wave 7). Only how
 * fast code runs changes, never what it does.
 * And no bytecode flushing: V8 drops the bytecode of functions not run for a while (the start-up's, the walk's)
 * at its full collections, of which a run slowed by other load makes more, and the trees' code cache, made at the
 * end of such a run, then held half the functions (167 against 350 KB in 2 of 6 runs of 10k team files beside 3
 * busy loops, 0 of 8 without flushing): every later run on a tree compiled them again (+2% wall time, +3% CPU;
 * BENCHMARKS.md, wave 13). Not for a long input, whose RSS is what a large input's flags keep low.
 */
const BRIEF_INPUT_FLAGS = [...LARGE_INPUT_FLAGS, '--no-turbofan', '--no-flush-bytecode'];
/** DEFAULT_FLAGS for BRIEF_INPUT_FLAGS. */
const BRIEF_DEFAULT_FLAGS = [...DEFAULT_FLAGS, '--turbofan', '--flush-bytecode'];
/**
 * For a brief input checked by this thread and a worker (core's `LargeInput.threads`): no parallel scavenges
 * either. Both cores run JavaScript, so V8's helper threads for a young-generation collection only take turns with
 * them (10k team files on two threads: ~4% less wall time, BENCHMARKS.md, wave 9). Alone on a core they would win
 * (wave 8), so not for one thread.
 */
const POOLED_BRIEF_FLAGS = [...BRIEF_INPUT_FLAGS, '--no-parallel-scavenge'];
/** DEFAULT_FLAGS for POOLED_BRIEF_FLAGS. */
const POOLED_BRIEF_DEFAULT_FLAGS = [...BRIEF_DEFAULT_FLAGS, '--parallel-scavenge'];
/**
 * For a long input checked by this thread and workers: no parallel scavenges either, for the same reason (100k team
 * files on two threads, interleaved: ~6% less wall time and ~5% less CPU; BENCHMARKS.md, wave 15).
 */
const POOLED_LARGE_FLAGS = [...LARGE_INPUT_FLAGS, '--no-parallel-scavenge'];
/** DEFAULT_FLAGS for POOLED_LARGE_FLAGS. */
const POOLED_LARGE_DEFAULT_FLAGS = [...DEFAULT_FLAGS, '--parallel-scavenge'];
/**
 * The input's flags by the number the main thread stores for a worker started before the input was known
 * (startEarlyWorker): 0 not known yet.
 */
const FLAGS_BY_MODE = [
  undefined,
  LARGE_INPUT_FLAGS,
  BRIEF_INPUT_FLAGS,
  POOLED_BRIEF_FLAGS,
  POOLED_LARGE_FLAGS,
];
/** The last argument of a pool worker started once they are known, by the same number. */
const ARG_BY_MODE = [undefined, LARGE, BRIEF, POOLED_BRIEF, POOLED_LARGE];
/** The flags set for this input (one of FLAGS_BY_MODE), if any (the flags are the process's). */
let inputFlags;

/**
 * A brief input's old generation is collected in full after a run (a chunk of the pool) whenever it has grown by
 * this much since the last collection. A brief input never fills the old generation enough for V8 to collect it,
 * so what each run's records promoted stays until the process ends (~12 MB of pages per thread for 10k team
 * files, ~5 MB of it alive): on two threads that was 1.47x the floor's peak RSS against the target's 1.5x.
 * A collection takes its thread ~5-10 ms: at 2 MB a run of 10k team files made 6-14 of them on its two threads
 * (47-105 ms in all), at 3 MB 3-6 (25-66 ms): ~0.03 s less CPU for ~1-2 MB more peak RSS (BENCHMARKS.md, wave 15).
 */
const COLLECT_AFTER_GROWTH = 3 * 1024 * 1024;
/** Whether chunks end with collectIfGrown's check (a brief input), and the heap's size after the last collection. */
let collecting = false;
let heapAfterCollect = 0;
/** A function that runs a full collection (`%CollectGarbage`), once made; null when this V8 cannot. */
let fullCollection;
/** The `v8` binding's heap statistics (setV8Flags' binding) for heapUsed, once asked for; null where it has none. */
let heapStats;

/**
 * Which code caches this run reads and writes (see requireWithCodeCache): `'file'` for `ckpt validate` on files
 * only, `'tree'` for a run with a directory among its arguments and for the pool's workers. A cache holds the
 * bytecode of the functions the run that wrote it compiled, and a tree's run compiles more (the walk, the units,
 * the pool: 350 against 314 KB for the bundle): a one-file run reading a tree's cache took ~4% more CPU and wall
 * time (BENCHMARKS.md, wave 13). Kept apart, the cache a one-file run reads is always one a run on files wrote,
 * whichever kind of run came after a rejection (a Node upgrade, other V8 flags).
 */
let cacheKind = 'file';
/** Whether core called onLargeInput: a run on files that turns out large (a glob, 1,000 files) writes no cache. */
let largeInput = false;

/**
 * For `ckpt validate <directory>`: a pool worker started now, before the bundle is even compiled, and the shared
 * number that tells it the input's flags once they are known (FLAGS_BY_MODE). See startEarlyWorker.
 */
const early = startEarlyWorker();

async function run() {
  const args = process.argv.slice(2);
  let code;
  if (
    args[0] === POOL_WORKER &&
    (args.length === 2 || (args.length === 3 && (args[2] === EARLY || ARG_BY_MODE.includes(args[2])))) &&
    !require('node:worker_threads').isMainThread
  ) {
    // A worker of the fast path's pool: the same bundle, compiled from the code cache the main thread wrote. For
    // a large input the main thread set LARGE_INPUT_FLAGS (or a brief input's): compiled under the defaults, then
    // they are set again (a worker's start puts --semi-space-growth-factor back to V8's default, for the whole
    // process). The worker started early learns them when its job comes (the main thread stored them by then).
    const { parentPort, workerData } = require('node:worker_threads');
    const mode = args[2] === EARLY ? workerData : undefined;
    const flags = FLAGS_BY_MODE[mode ? Atomics.load(mode, 0) : ARG_BY_MODE.indexOf(args[2])];
    if (flags) inputFlags = flags;
    // Workers serve large inputs only: the caches trees' runs write.
    cacheKind = 'tree';
    const fast = requireWithCodeCache(args[1]);
    const job = (known) => {
      if (known) setInputFlags(known);
      collecting = known === BRIEF_INPUT_FLAGS || known === POOLED_BRIEF_FLAGS;
      heapAfterCollect = heapUsed();
    };
    // Before servePool's own listener: the flags are set before the job's first chunk.
    if (mode) parentPort.once('message', () => job(FLAGS_BY_MODE[Atomics.load(mode, 0)]));
    else job(flags);
    fast.servePool({ afterChunk: collectIfGrown });
    return;
  }
  if (args[0] === 'validate') {
    const bundle = join(dist, 'bundle', 'validate.cjs');
    const module = join(dist, 'commands', 'validate-fast.js');
    if (isFresh(bundle, module, ['core', 'schemas'])) {
      if (early || namesDirectory(args.slice(1))) cacheKind = 'tree';
      const fast = requireWithCodeCache(bundle);
      // Its workers run this file too (not the bundle's ES module pool-worker.js, compiled anew in each).
      fast.setPoolWorker?.(__filename, [POOL_WORKER, bundle]);
      if (early && fast.adoptPoolWorker) fast.adoptPoolWorker(early.worker);
      else if (early) void early.worker.terminate();
      code = await fast.fastValidate(args.slice(1), {
        onLargeInput(input) {
          largeInput = true;
          const brief = input?.brief === true;
          const pooled = (input?.threads ?? 1) > 1;
          const m = brief ? (pooled ? 3 : 2) : pooled ? 4 : 1;
          setInputFlags(FLAGS_BY_MODE[m]);
          if (early) Atomics.store(early.mode, 0, m);
          fast.setPoolWorker?.(__filename, [POOL_WORKER, bundle, ARG_BY_MODE[m]]);
          collecting = brief;
          heapAfterCollect = heapUsed();
        },
        onLongInput() {
          // A brief input that is not (e.g. one run of 100k events): the optimizing compiler, parallel scavenges
          // and bytecode flushing back on; its records stay alive, so no collection after each run either.
          if (setV8Flags(['--turbofan', '--parallel-scavenge', '--flush-bytecode']))
            inputFlags = LARGE_INPUT_FLAGS;
          fast.setPoolWorker?.(__filename, [POOL_WORKER, bundle, LARGE]);
          collecting = false;
        },
        afterChunk: collectIfGrown,
      });
      saveCodeCaches();
      // The report went out with writeSync: exit now rather than idle ~4 ms in Node's loop before it ends
      // (BENCHMARKS.md, wave 12). Warnings queued last (process.emitWarning writes on a later tick) are written first.
      if (code !== undefined) {
        await new Promise((resolve) => process.nextTick(resolve));
        exitWhenWritten(code);
      }
    } else {
      // The workspace's modules, the bundle being stale: the same flags for a large input (no code cache here to
      // keep under the defaults). Their workers run core's pool-worker.js, whose start puts the young generation's
      // growth back to V8's default (see LARGE_INPUT_FLAGS); a brief input of fewer than 48 runs has none.
      code = await (await import(pathToFileURL(module).href)).fastValidate(args.slice(1), {
        onLargeInput(input) {
          setInputFlags(input?.brief === true ? BRIEF_INPUT_FLAGS : LARGE_INPUT_FLAGS);
        },
        onLongInput() {
          if (setV8Flags(['--turbofan', '--flush-bytecode'])) inputFlags = LARGE_INPUT_FLAGS;
        },
      });
    }
  }
  if (code === undefined) {
    const bundle = join(dist, 'bundle', 'ckpt.js');
    const module = join(dist, 'main.js');
    const { main } = await import(
      pathToFileURL(isFresh(bundle, module, ['core', 'schemas', 'viewer']) ? bundle : module).href
    );
    code = await main(process.argv);
    // `ckpt status` / `ckpt list` have printed everything and leave nothing running: exit now, without tearing
    // down a heap that holds a whole project (100k events: ~250 MB; ~0.1 s of wall time).
    if (args[0] === 'status' || args[0] === 'list') exitWhenWritten(code);
  }
  process.exitCode = code;
}

run();

/**
 * Ends the process with `code` at once if stdout and stderr have handed every byte to the system: a stream never
 * built holds nothing (the validate fast path writes with writeSync); a pipe a reader has not emptied yet is
 * waited for as always, by returning.
 */
function exitWhenWritten(code) {
  for (const name of built) if (process[name].writableLength !== 0) return;
  process.exit(code);
}

/**
 * Sets an input's flags (LARGE_INPUT_FLAGS, BRIEF_INPUT_FLAGS) for the process, through the `v8` binding (~0.3 ms;
 * `require('node:v8')` loads ~30 modules, ~5 ms). Without the binding (another Node), nothing: V8's defaults.
 */
function setInputFlags(flags) {
  if (setV8Flags(flags)) inputFlags = flags;
}

/**
 * Runs `f` (a compile from a code cache, or the making of one) under V8's default flags. V8 stamps a code cache
 * with a hash of the flags that differ from their defaults and rejects a cache made under another stamp, so every
 * cache is made and read under the defaults: a large input's flags never cost the next one-file run its caches.
 * A compile on another thread meanwhile (a pool worker's start) may see the other flags: its cache is then
 * rejected and the file compiled from source, never anything worse.
 */
function withDefaultFlags(f) {
  const flags = inputFlags;
  if (!flags) return f();
  setV8Flags(
    flags === POOLED_BRIEF_FLAGS
      ? POOLED_BRIEF_DEFAULT_FLAGS
      : flags === BRIEF_INPUT_FLAGS
        ? BRIEF_DEFAULT_FLAGS
        : flags === POOLED_LARGE_FLAGS
          ? POOLED_LARGE_DEFAULT_FLAGS
          : DEFAULT_FLAGS,
  );
  try {
    return f();
  } finally {
    setV8Flags(flags);
  }
}

function setV8Flags(flags) {
  const quiet = process.noDeprecation;
  try {
    // process.binding() warns that it is deprecated: not for this internal call.
    process.noDeprecation = true;
    const v8 = process.binding('v8');
    for (const flag of flags) v8.setFlagsFromString(flag);
    return true;
  } catch {
    return false;
  } finally {
    process.noDeprecation = quiet;
  }
}

/**
 * After each run (a chunk of the pool) this thread checked: a full collection when the input is brief and the heap
 * grew by COLLECT_AFTER_GROWTH since the last one (~5-10 ms each; 10k team files: 1-3 per thread).
 */
function collectIfGrown() {
  if (!collecting || heapUsed() < heapAfterCollect + COLLECT_AFTER_GROWTH) return;
  fullCollection ??= makeFullCollection();
  if (!fullCollection) {
    collecting = false;
    return;
  }
  fullCollection();
  heapAfterCollect = heapUsed();
}

/**
 * The V8 heap's used bytes: `process.memoryUsage().heapUsed`, without the resident set size that
 * `process.memoryUsage()` reads from /proc too. That read waits for the process's memory map lock, which the
 * other thread's and V8's helpers' page mapping hold: timed in a 10k run it took 1-5 ms a call, 10-58 ms per
 * thread in all (BENCHMARKS.md, wave 16); V8's own statistics take microseconds.
 */
function heapUsed() {
  if (heapStats === undefined) {
    heapStats = null;
    const quiet = process.noDeprecation;
    try {
      // process.binding() warns that it is deprecated: not for this internal call.
      process.noDeprecation = true;
      const v8 = process.binding('v8');
      if (typeof v8.updateHeapStatisticsBuffer === 'function' && typeof v8.kUsedHeapSizeIndex === 'number')
        heapStats = v8;
    } catch {
      // Another Node: process.memoryUsage() below.
    } finally {
      process.noDeprecation = quiet;
    }
  }
  if (heapStats === null) return process.memoryUsage().heapUsed;
  heapStats.updateHeapStatisticsBuffer();
  return heapStats.heapStatisticsBuffer[heapStats.kUsedHeapSizeIndex];
}

/**
 * `%CollectGarbage`, compiled while V8 allows its runtime functions (one flag, set back at once: code caches and
 * user input never see it); null where that fails.
 */
function makeFullCollection() {
  if (!setV8Flags(['--allow-natives-syntax'])) return null;
  try {
    // Parenthesized, so that V8 compiles the function now, while the flag is set.
    return require('node:vm').runInThisContext('(function () { %CollectGarbage(0); })');
  } catch {
    return null;
  } finally {
    setV8Flags(['--no-allow-natives-syntax']);
  }
}

/**
 * For `ckpt validate` with a directory of many team runs among its arguments (manyRuns), run by the bundle on a
 * machine with a second core (and CKPT_THREADS not 1): a pool worker of the fast path started at once, and
 * `{ worker, mode }`; undefined otherwise.
 * Not for `ckpt status`/`list` (tried in wave 11, f9417a0): there its bootstrap competes with the main thread's own
 * start-up, for ~2% more CPU and no wall time gained (BENCHMARKS.md, wave 11, coordinator).
 * Node's bootstrap of a worker thread takes ~75-150 ms of its own (it compiles Node's internal modules again):
 * started here it overlaps this thread's start-up (the bundle, the walk) instead of following the walk, which
 * made a worker pay only from ~25k team files (BENCHMARKS.md, wave 9). The pool takes it (`adoptPoolWorker`) and
 * core stops it when the input is too small to use it. Never for a file argument: one file costs start-up only.
 * Nor for a small tree: a worker started for nothing costs ~30 ms of wall time and ~90 ms of CPU (the sample
 * project, 154 files: 0.25 -> 0.28 s).
 * `mode` ([0]) is 0 until the input's flags are known, then their index in FLAGS_BY_MODE.
 */
function startEarlyWorker() {
  const args = process.argv;
  if (args[2] !== 'validate' || process.env.CKPT_THREADS === '1') return undefined;
  try {
    let many = false;
    for (let i = 3; i < args.length && !many; i++) if (!args[i].startsWith('-')) many = manyRuns(args[i]);
    const bundle = join(dist, 'bundle', 'validate.cjs');
    if (!many || !isFresh(bundle, join(dist, 'commands', 'validate-fast.js'), ['core', 'schemas']))
      return undefined;
    const threads = require('node:worker_threads');
    if (!threads.isMainThread || require('node:os').availableParallelism() < 2) return undefined;
    const mode = new Int32Array(new SharedArrayBuffer(4));
    const worker = new threads.Worker(__filename, {
      argv: [POOL_WORKER, bundle, EARLY],
      workerData: mode,
      // core's VALIDATE_WORKER_YOUNG_MB, what the pool gives the workers it starts for runs.
      resourceLimits: { maxYoungGenerationSizeMb: 6 },
    });
    return { worker, mode };
  } catch {
    return undefined;
  }
}

/**
 * Whether validate's arguments `args` name a directory (or none, which is the current one): the run then uses the
 * trees' code caches (cacheKind). One stat per path; an option's value (`json`) is a path that rarely exists.
 */
function namesDirectory(args) {
  let paths = 0;
  for (const a of args) {
    if (a.startsWith('-')) continue;
    paths++;
    try {
      if (statSync(a, { throwIfNoEntry: false })?.isDirectory()) return true;
    } catch {
      // Not a path that can be a directory.
    }
  }
  return paths === 0;
}

/**
 * Whether `path` is a directory whose team runs (`.team/runs/*`, the units core spreads over threads) are enough for
 * two threads once a worker has started (core's VALIDATE_MIN_UNITS_PER_THREAD_STARTED, 12 per thread): a project,
 * its `.team` folder or the `runs` folder itself. One listing of a few dozen names, ~0.1 ms.
 */
function manyRuns(path) {
  const name = basename(path.replace(/[\\/]+$/, ''));
  const runs = name === 'runs' ? path : join(path, name === '.team' ? 'runs' : join('.team', 'runs'));
  try {
    return readdirSync(runs).length > 24;
  } catch {
    return false;
  }
}

/**
 * Whether to run dist/bundle/<bundle> rather than tsc's dist/<module>: always when there is no module (the
 * installed package), else while the bundle is newer than the CLI's own modules and the built entries of the
 * workspace packages it holds.
 */
function isFresh(bundle, module, packages) {
  const mod = statSync(module, { throwIfNoEntry: false });
  if (!mod) return true;
  const made = statSync(bundle, { throwIfNoEntry: false })?.mtimeMs ?? -1;
  const notNewer = (path) => (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0) <= made;
  const linked = join(__dirname, '..', 'node_modules', '@ckpt');
  return (
    made >= mod.mtimeMs &&
    // Where pnpm links the workspace packages next to this one: a package lookup through require.resolve
    // costs ~8 ms, a tenth of a one-file validate.
    packages.every((p) => notNewer(join(linked, p, 'dist', 'index.js'))) &&
    // The viewer's client is copied into the bundle, and is edited without a build.
    (!packages.includes('viewer') || viewerStatic(join(linked, 'viewer', 'static')).every(notNewer))
  );
}

function viewerStatic(dir) {
  try {
    return readdirSync(dir).map((name) => join(dir, name));
  } catch {
    return [];
  }
}

/**
 * Runs a CommonJS file the way require() would, but compiled with a V8 code cache: Node 20 compiles every
 * function of a module anew in each process (~10 ms for the validate bundle; it has no module compile cache).
 * The `.cjs` files the file requires by a relative path (the precompiled validators and the ajv runtime they
 * share) are run the same way; anything else is Node's require.
 * A file's cache is the bytecode of the functions one run used, written after that run (saveCodeCaches) to
 * <XDG_CACHE_HOME or ~/.cache>/ckpt/ (user-writable; never a shared temporary folder: cached bytecode is code).
 * It is used only for the file it was made from: its key is Node's version, the architecture and the file's
 * device, inode, size, mtime and ctime (any write or replacement of the file changes the ctime or the inode), and
 * V8 rejects data from another V8 version or other flags. Anything wrong with a cache (missing, another key,
 * rejected, unreadable, unwritable) means a plain compile, and a rewrite when possible: never an error.
 * Runs on files and runs on trees keep caches of their own (cacheKind): neither kind ever reads or replaces the
 * other's, and a run on files that turns out large writes none.
 */
function requireWithCodeCache(file) {
  const known = scripts.get(file);
  if (known) return known.module.exports;
  const vm = require('node:vm');
  const source = readFileSync(file, 'utf8');
  let key;
  let cacheFile;
  let cachedData;
  try {
    const st = statSync(file, { bigint: true });
    // The file's path last (ASCII, no space or line feed): pruneCodeCaches finds the caches of removed copies.
    key = `ckpt-v8-cache 1 ${process.version} ${process.arch} ${st.dev} ${st.ino} ${st.size} ${st.mtimeNs} ${st.ctimeNs} ${encodeURIComponent(file)}\n`;
    cacheFile = cachePath(file);
    if (cacheFile) {
      const data = readFileSync(cacheFile);
      if (data.length > key.length && data.toString('latin1', 0, key.length) === key)
        cachedData = data.subarray(key.length);
    }
  } catch {
    // No cache yet, or none possible.
  }
  // The module wrapper on a line of its own, so that positions in stack traces are the file's own.
  const script = withDefaultFlags(
    () =>
      new vm.Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, {
        filename: file,
        lineOffset: -1,
        ...(cachedData ? { cachedData } : {}),
      }),
  );
  const module = { exports: {}, id: file, filename: file };
  scripts.set(file, { module, script, key, cacheFile, cached: cachedData !== undefined });
  const dir = dirname(file);
  let nodeRequire;
  const node = () => {
    nodeRequire ??= Module.createRequire(file);
    return nodeRequire;
  };
  // node:module is Node's Module itself (the same object require returns), without require building its ES
  // module facade for it (~0.3 ms).
  const ownRequire = (id) =>
    /^\.\.?\/.*\.cjs$/.test(id)
      ? requireWithCodeCache(join(dir, id))
      : id === 'node:module'
        ? Module
        : node()(id);
  ownRequire.resolve = (id, options) => node().resolve(id, options);
  script.runInThisContext().call(module.exports, module.exports, ownRequire, module, file, dir);
  return module.exports;
}

/**
 * Writes the cache of each file requireWithCodeCache ran that had none (or had one V8 rejected); nothing after a
 * large input on files (its functions are not a one-file run's; see cacheKind).
 */
function saveCodeCaches() {
  if (cacheKind === 'file' && largeInput) return;
  let wrote;
  for (const { script, key, cacheFile, cached } of scripts.values()) {
    if (!cacheFile || (cached && !script.cachedDataRejected)) continue;
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    let fd;
    try {
      mkdirSync(dirname(cacheFile), { recursive: true });
      // Opened before the cache is made, so that a folder that cannot be written costs no more than this.
      fd = openSync(tmp, 'w');
      writeSync(fd, key, null, 'latin1');
      writeSync(
        fd,
        withDefaultFlags(() => script.createCachedData()),
      );
      closeSync(fd);
      fd = undefined;
      // Atomic: a ckpt started meanwhile reads the old cache, the new one or none, never half of one.
      renameSync(tmp, cacheFile);
      wrote = dirname(cacheFile);
    } catch {
      try {
        if (fd !== undefined) closeSync(fd);
        rmSync(tmp, { force: true });
      } catch {
        // Nothing was written.
      }
    }
  }
  // A new cache means a new or changed copy of ckpt (an install, an upgrade, an npx run): the time to drop what
  // copies that are gone left behind (the folder is never pruned otherwise).
  if (wrote) pruneCodeCaches(wrote);
}

/** Age after which a cache whose file is unknown (an older ckpt's key) or a temporary file is dropped. */
const STALE_UNKNOWN_MS = 30 * 24 * 3600 * 1000;
const STALE_TMP_MS = 3600 * 1000;

/**
 * Removes the caches in `dir` of files that no longer exist (a removed install, an npx folder), caches with no
 * path in their key and temporary files left by a killed process, once old. Safe beside other ckpt processes:
 * the cache of an existing file is never removed (its own copy rewrites it when it changed), a process that has
 * a cache open keeps reading it, and anything that fails is left for the next time.
 */
function pruneCodeCaches(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const now = Date.now();
  const head = Buffer.alloc(16384);
  for (const name of names) {
    const path = join(dir, name);
    try {
      if (name.endsWith('.tmp')) {
        if (now - statSync(path).mtimeMs > STALE_TMP_MS) rmSync(path, { force: true });
        continue;
      }
      if (!name.endsWith('.v8')) continue;
      const fd = openSync(path, 'r');
      let line;
      try {
        line = head.toString('latin1', 0, readSync(fd, head, 0, head.length, 0));
      } finally {
        closeSync(fd);
      }
      const end = line.indexOf('\n');
      const fields = (end < 0 ? line : line.slice(0, end)).split(' ');
      if (fields[0] !== 'ckpt-v8-cache') continue;
      const stale =
        fields.length >= 10
          ? !statSync(decodeURIComponent(fields[9]), { throwIfNoEntry: false })
          : now - statSync(path).mtimeMs > STALE_UNKNOWN_MS;
      if (stale) rmSync(path, { force: true });
    } catch {
      // Gone meanwhile, unreadable, or a name that does not decode: left alone.
    }
  }
}

/**
 * <cache dir>/ckpt/<file name>-<hash of its path>.v8 for runs on files, <…>.tree.v8 for runs on trees
 * (cacheKind): one file per installed copy of a file and kind; none with CKPT_CODE_CACHE=0.
 */
function cachePath(file) {
  const env = process.env;
  if (env.CKPT_CODE_CACHE === '0') return undefined;
  const base =
    env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : process.platform === 'win32' && env.LOCALAPPDATA
        ? env.LOCALAPPDATA
        : env.HOME
          ? join(env.HOME, '.cache')
          : undefined;
  if (!base) return undefined;
  let h = 0x811c9dc5;
  for (let i = 0; i < file.length; i++) h = Math.imul(h ^ file.charCodeAt(i), 0x01000193);
  const kind = cacheKind === 'tree' ? '.tree' : '';
  return join(base, 'ckpt', `${basename(file)}-${(h >>> 0).toString(16)}${kind}.v8`);
}
