import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MessagePort, Worker } from 'node:worker_threads';
import { lazyRequire } from '../util/lazy-require.js';
import { availableParallelism } from '../util/os.js';

// node:worker_threads costs ~2 ms to load: only a run that starts workers loads it (one-file runs never do).
/** Node's require for this module, made when a worker is started. */
const load = lazyRequire(() => import.meta.url);
let threadsModule: typeof import('node:worker_threads') | undefined;

/**
 * A task the pool runs: `name` is how a worker finds it in `poolTasks` (./tasks.ts), `start` is the same function
 * for this thread. `start(input)` runs once per thread and returns the function that maps a range of item indexes
 * `[from, to)` to one result per item.
 */
export interface PoolTask<I, O> {
  readonly name: string;
  readonly start: (input: I) => (from: number, to: number) => O[];
}

export interface PoolOptions {
  /**
   * Threads in all, this one included (workers only, with `callerWorks: false`); default
   * `os.availableParallelism()`. 1 runs everything here.
   */
  readonly threads?: number;
  /** Fewer items than this per thread and no worker is started (starting one costs ~40 ms). Default 2000. */
  readonly minItemsPerThread?: number;
  /** Items handed out at a time; default: about 16 chunks per thread, between 16 and 512 items. */
  readonly chunkSize?: number;
  /** Told each chunk a worker failed on (it is then done on this thread), with the worker's error. */
  readonly onWorkerError?: (chunk: number, error: string) => void;
  /**
   * Whether the calling thread takes chunks too (default true: `threads - 1` workers). False: `threads` workers
   * (when `threads` > 1), and this thread only receives (`poolChunks`: it is then free to use each result as it
   * comes).
   */
  readonly callerWorks?: boolean;
  /**
   * The young generation of each worker started, in MB (V8's default grows it to ~48 MB per thread). A task that
   * keeps little alive between items runs as fast with a few MB, and the process stays smaller.
   */
  readonly youngGenerationMb?: number;
  /**
   * Called on this thread after each chunk it ran itself (workers have `servePool`'s own), e.g. to collect the
   * garbage a chunk left in the old generation before the next one adds to it.
   */
  readonly afterChunk?: () => void;
}

/**
 * A job posted to the workers before this thread knows how many items there are (`poolAhead`): each worker finds
 * its items itself (e.g. lists the same folder) and reads chunk after chunk until the count is set (`poolChunks`
 * with `ahead`) or its own items end. A chunk it returns with fewer or more results than this thread's count gives
 * is done again here.
 */
export interface PoolAhead {
  readonly task: string;
  readonly chunkSize: number;
  /** [next chunk to take, chunks finished, chunks, items]: the last two unknown (`UNKNOWN`) until counted. */
  readonly state: Int32Array;
  readonly workers: readonly Worker[];
  readonly ports: readonly MessagePort[];
}

/** The chunk and item counts of a job posted ahead while this thread counts its items. */
const UNKNOWN = 0x7fffffff;

/** What a worker posts for each chunk it finished. */
interface ChunkMessage {
  readonly chunk: number;
  readonly out?: unknown[];
  readonly error?: string;
}

/** How long this thread waits for the workers without any chunk finishing before it does the rest itself. */
const STALL_MS = 60_000;
/** How long this thread, when it only receives (`callerWorks: false`), waits for a worker to take a first chunk. */
const START_MS = 5_000;
const WORKER_FILE = 'pool-worker.js';

let workerScript: string | null | undefined;
/** The arguments a worker is started with (`process.argv` after its script), from `setPoolWorker`. */
let workerArgv: readonly string[] = [];

/**
 * Starts the pool's workers from `file` with `argv` instead of core's `pool-worker.js`: a script that calls
 * `servePool()` (pool/serve.ts) on the worker thread, e.g. the CLI's bin loading its bundle with a V8 code cache.
 * For workers started from then on.
 */
export function setPoolWorker(file: string, argv: readonly string[] = []): void {
  workerScript = file;
  workerArgv = argv;
}

/**
 * The worker script: `pool-worker.js` beside this module (core's dist/pool/, or the CLI bundle's folder, where the
 * bundle emits it beside its chunks); from core's sources (tests) the built one in dist/pool/. Null when there is
 * none: everything then runs on this thread.
 */
function findWorkerScript(): string | null {
  if (workerScript !== undefined) return workerScript;
  const here = new URL(WORKER_FILE, import.meta.url);
  const candidates = [here, new URL(`../../dist/pool/${WORKER_FILE}`, import.meta.url)];
  workerScript = null;
  for (const c of candidates) {
    if (c.protocol !== 'file:') continue;
    const p = fileURLToPath(c);
    if (existsSync(p)) {
      workerScript = p;
      break;
    }
  }
  return workerScript;
}

/** Workers started ahead of a `poolMap` call (`warmPool`), waiting for their job. */
const idle: Worker[] = [];
/** When each worker has loaded its modules (it posts once, then waits for its job); also when it failed. */
const loaded = new WeakMap<Worker, Promise<void>>();

function spawn(youngMb: number | undefined): Worker | undefined {
  threadsModule ??= load('node:worker_threads') as typeof import('node:worker_threads');
  try {
    return track(
      new threadsModule.Worker(findWorkerScript()!, {
        ...(workerArgv.length > 0 ? { argv: [...workerArgv] } : {}),
        ...(youngMb ? { resourceLimits: { maxYoungGenerationSizeMb: youngMb } } : {}),
      }),
    );
  } catch {
    return undefined;
  }
}

/**
 * A worker this module will hand jobs to: `loaded` resolves at its first message (or its exit), an 'error' event
 * is never an uncaught exception, and an idle worker never keeps the process alive.
 */
function track(w: Worker): Worker {
  loaded.set(
    w,
    new Promise((resolve) => {
      w.once('message', () => resolve());
      w.once('exit', () => resolve());
    }),
  );
  w.on('error', () => {});
  w.unref();
  return w;
}

/**
 * Starts the workers of a coming `poolMap` / `poolChunks` call now (threads - 1 of them; default
 * `os.availableParallelism()`), so that their start-up (~35-50 ms: a thread, its module graph) overlaps work this
 * thread still has to do before it knows the items, e.g. walking the tree. The next call that uses workers takes
 * them (`opts.youngGenerationMb` applies to the workers started here); unused ones do not keep the process alive.
 * Nothing when there is no worker script.
 */
export function warmPool(
  threads: number = availableParallelism(),
  opts: Pick<PoolOptions, 'youngGenerationMb'> = {},
): void {
  if (!findWorkerScript()) return;
  while (idle.length < threads - 1) {
    const w = spawn(opts.youngGenerationMb);
    if (!w) return;
    idle.push(w);
  }
}

/**
 * Takes a worker the caller started itself before anything else (the CLI starts one at its first line for
 * `ckpt validate <directory>`, so that Node's worker bootstrap, ~75-150 ms, overlaps this thread's own start-up
 * instead of following the walk): the next call that uses workers takes it, like one `warmPool` started. It must
 * run what `setPoolWorker` names (a script that calls `servePool()`). Waiting, it never keeps the process alive;
 * `poolRelease` stops it when no call will use it.
 */
export function adoptPoolWorker(w: Worker): void {
  idle.push(track(w));
}

/** How many workers wait for a job (started by `warmPool` or adopted): a job can use them at once. */
export function poolIdleWorkers(): number {
  return idle.length;
}

/** Stops the workers that wait for a job (`warmPool`, `adoptPoolWorker`): none will come. */
export function poolRelease(): void {
  for (const w of idle.splice(0)) void w.terminate();
}

/**
 * Resolves when the workers `warmPool` started have loaded their modules and wait for a job (or failed to start).
 * A `poolMap` call never needs this; a test that must see them take chunks does (a loaded machine can take seconds).
 */
export function warmPoolLoaded(): Promise<void> {
  return Promise.all(idle.map((w) => loaded.get(w))).then(() => undefined);
}

/** The number of threads `poolMap` would use for `count` items. */
export function poolThreads(count: number, opts: PoolOptions = {}): number {
  const min = Math.max(1, opts.minItemsPerThread ?? 2000);
  const most = Math.floor(count / min);
  // Too few items for two threads, however many there are (a one-file run never asks node:os).
  if (most <= 1) return 1;
  const max = Math.max(1, Math.floor(opts.threads ?? availableParallelism()));
  const wanted = Math.min(max, most);
  return wanted <= 1 || !findWorkerScript() ? 1 : wanted;
}

/** Starts the workers a job needs (`wanted` of them): those `warmPool` started first. */
function takeWorkers(wanted: number, youngMb: number | undefined): Worker[] {
  const workers: Worker[] = idle.splice(0, wanted);
  while (workers.length < wanted) {
    const w = spawn(youngMb);
    if (!w) break;
    workers.push(w);
  }
  return workers;
}

/** Posts the job to each worker; the ports its chunks come back on. */
function postJob(
  workers: readonly Worker[],
  task: string,
  input: unknown,
  chunkSize: number,
  state: Int32Array,
) {
  const { MessageChannel } = threadsModule!;
  const ports: MessagePort[] = [];
  for (const w of workers) {
    const { port1, port2 } = new MessageChannel();
    // A worker that cannot start (or died) takes no chunk; this thread does its share.
    w.postMessage({ task, input, chunkSize, state, port: port2 }, [port2]);
    ports.push(port1);
  }
  return ports;
}

/**
 * Posts `task` with `input` to `threads - 1` workers (those `warmPool` started first) before this thread knows the
 * items: each worker's `task.start(input)` finds them itself, so that it reads while this thread still lists
 * them. `poolChunks(task, input, count, { ahead })` then takes the job over (its `input` is this thread's); when it
 * is not called, `poolAheadCancel` stops the workers. Undefined when there is no worker script.
 */
export function poolAhead<I>(
  task: PoolTask<I, unknown>,
  input: I,
  threads: number = availableParallelism(),
  opts: Pick<PoolOptions, 'youngGenerationMb' | 'chunkSize'> = {},
): PoolAhead | undefined {
  if (threads <= 1 || !findWorkerScript()) return undefined;
  threadsModule ??= load('node:worker_threads') as typeof import('node:worker_threads');
  const state = new Int32Array(new SharedArrayBuffer(16));
  state[2] = UNKNOWN;
  state[3] = UNKNOWN;
  const workers = takeWorkers(threads - 1, opts.youngGenerationMb);
  if (workers.length === 0) return undefined;
  const chunkSize = opts.chunkSize ?? 512;
  return {
    task: task.name,
    chunkSize,
    state,
    workers,
    ports: postJob(workers, task.name, input, chunkSize, state),
  };
}

/** Stops a job posted ahead (`poolAhead`) that `poolChunks` did not take over. */
export function poolAheadCancel(ahead: PoolAhead): void {
  Atomics.store(ahead.state, 2, 0);
  for (const port of ahead.ports) port.close();
  for (const w of ahead.workers) void w.terminate();
}

/**
 * Maps `count` items through `task` on this thread and `threads - 1` worker threads; the results come back in item
 * order, as `task.start(input)(0, count)` would return them. Synchronous: this thread works on chunks too, then
 * blocks until the workers' chunks are in (Atomics.wait, receiveMessageOnPort). Chunks are taken from a shared
 * counter, so a thread slowed by other load simply takes fewer. A chunk a worker failed on, or did not finish
 * within a minute of no progress, is done again here: the result never depends on the workers.
 *
 * `input` is copied to every worker once (structured clone): pass flat data (strings, arrays of strings), and
 * keep results small, since they are copied back the same way.
 */
export function poolMap<I, O>(task: PoolTask<I, O>, input: I, count: number, opts: PoolOptions = {}): O[] {
  const out: O[] = [];
  for (const chunk of poolChunks(task, input, count, opts)) for (const x of chunk) out.push(x);
  return out;
}

/**
 * `poolMap` as it goes: yields the results chunk by chunk, in item order, each as soon as it and every chunk
 * before it are done, so that a caller can use them (write them out, drop them) while the workers go on. Between
 * two results this thread takes chunks itself (unless `callerWorks` is false: then it only waits, and `threads`
 * worker threads are started), so it is never idle while there is work left. A caller that stops early (breaks
 * out of the loop) stops the workers. With `ahead` (`poolAhead`, the same task) the workers it posted the job to
 * take their chunks from where they are (they may have read some already), `input` being this thread's only.
 */
export function* poolChunks<I, O>(
  task: PoolTask<I, O>,
  input: I,
  count: number,
  opts: PoolOptions & { readonly ahead?: PoolAhead } = {},
): Generator<O[], void, undefined> {
  const threads = poolThreads(count, opts);
  // A job posted ahead for too few items (or another task) is stopped: this call does it all its own way.
  if (opts.ahead && (threads === 1 || opts.ahead.task !== task.name)) poolAheadCancel(opts.ahead);
  const ahead = threads > 1 && opts.ahead?.task === task.name ? opts.ahead : undefined;
  const callerWorks = opts.callerWorks ?? true;
  const chunkSize =
    ahead?.chunkSize ?? opts.chunkSize ?? Math.min(512, Math.max(16, Math.ceil(count / (threads * 16))));
  const chunks = Math.ceil(count / chunkSize);
  let run: ((from: number, to: number) => O[]) | undefined;
  const afterChunk = opts.afterChunk;
  const runChunk = (c: number) => {
    run ??= task.start(input);
    const out = run(c * chunkSize, Math.min(count, (c + 1) * chunkSize));
    afterChunk?.();
    return out;
  };
  if (threads === 1) {
    for (let c = 0; c < chunks; c++) yield runChunk(c);
    return;
  }
  threadsModule ??= load('node:worker_threads') as typeof import('node:worker_threads');
  const { receiveMessageOnPort } = threadsModule;
  let state: Int32Array;
  let workers: readonly Worker[];
  let ports: readonly MessagePort[];
  if (ahead) {
    ({ state, workers, ports } = ahead);
    // The items first: a worker that sees the chunk count sees the item count.
    Atomics.store(state, 3, count);
    Atomics.store(state, 2, chunks);
  } else {
    // [next chunk to take, chunks finished, chunks, items]
    state = new Int32Array(new SharedArrayBuffer(16));
    state[2] = chunks;
    state[3] = count;
    workers = takeWorkers(callerWorks ? threads - 1 : threads, opts.youngGenerationMb);
    ports = postJob(workers, task.name, input, chunkSize, state);
  }
  const ready = new Map<number, O[]>();
  const failed = new Set<number>();
  const receive = () => {
    for (const port of ports)
      for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
        const msg = m.message as ChunkMessage;
        // A job posted ahead: a chunk past this thread's count, or one its worker found more or fewer items for.
        if (msg.chunk >= chunks) continue;
        const size = Math.min(count, (msg.chunk + 1) * chunkSize) - msg.chunk * chunkSize;
        if (msg.out && msg.out.length === size) ready.set(msg.chunk, msg.out as O[]);
        else if (msg.out) failed.add(msg.chunk);
        else {
          failed.add(msg.chunk);
          opts.onWorkerError?.(msg.chunk, msg.error ?? 'no result');
        }
      }
  };
  let here = callerWorks || workers.length === 0;
  try {
    for (let next = 0; next < chunks; ) {
      // Read before receiving: a worker posts before it counts, so a count above this one means a message.
      const finished = Atomics.load(state, 1);
      receive();
      const out = ready.get(next);
      if (out) {
        ready.delete(next);
        next++;
        yield out;
        continue;
      }
      if (here) {
        const c = Atomics.add(state, 0, 1);
        if (c < chunks) {
          ready.set(c, runChunk(c));
          Atomics.add(state, 1, 1);
          continue;
        }
      }
      // A chunk a worker failed on is done here (after this thread's own share).
      if (failed.has(next)) {
        ready.set(next, runChunk(next));
        continue;
      }
      // A worker has it: wait until some chunk is finished. None within STALL_MS (START_MS while no worker has
      // taken any: one that cannot start never will), and this thread works from now on, this chunk first.
      const taken = Atomics.load(state, 0);
      if (Atomics.wait(state, 1, finished, taken === 0 ? START_MS : STALL_MS) === 'timed-out') {
        here = true;
        receive();
        if (!ready.has(next) && next < taken) ready.set(next, runChunk(next));
      }
    }
  } finally {
    // Taken by nobody from now on: a worker still running stops after its chunk.
    Atomics.store(state, 0, chunks);
    for (const port of ports) port.close();
    for (const w of workers) void w.terminate();
  }
}
