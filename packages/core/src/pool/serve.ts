// A worker thread of the pool: takes chunks from the shared counter until none is left, runs the named task on each
// and posts the results (see pool.ts). pool-worker.ts runs it; so does the CLI's bundle when it starts workers from
// its own code-cached file (setPoolWorker).
import type { MessagePort } from 'node:worker_threads';
import { lazyRequire } from '../util/lazy-require.js';
import { poolTasks } from './tasks.js';

// node:worker_threads and the stream modules it loads cost a few ms (~5-10 ms on the 2-core machine of BENCHMARKS.md):
// loaded when a worker serves, not with this module, which the CLI's validate bundle holds (a one-file
// `ckpt validate` never starts a worker: pool.ts loads it only to start one).
/** Node's require for this module, made when a worker serves. */
const load = lazyRequire(() => import.meta.url);

/**
 * The job `poolMap` (or `poolAhead`) posts to a worker (started ahead by `warmPool`, or for this call). `state`:
 * [next chunk to take, chunks finished, chunks, items]; the last two are 0x7fffffff for a job posted before the
 * items were counted, until they are.
 */
interface Job {
  task: string;
  input: unknown;
  chunkSize: number;
  state: Int32Array;
  port: MessagePort;
}

/** What a worker script may add to `servePool`. */
export interface ServeOptions {
  /** Called after each chunk this worker ran (see `PoolOptions.afterChunk`). */
  readonly afterChunk?: () => void;
}

/** Serves one job on this worker thread, then lets the thread end. Says once that its modules are loaded. */
export function servePool(opts: ServeOptions = {}): void {
  const { parentPort } = load('node:worker_threads') as typeof import('node:worker_threads');
  if (!parentPort) throw new Error('servePool runs on a worker thread');
  const parent = parentPort;
  parent.once('message', ({ task, input, chunkSize, state, port }: Job) => {
    let run: ((from: number, to: number) => unknown[]) | undefined;
    let startError: string | undefined;
    try {
      const start = poolTasks[task];
      if (!start) throw new Error(`no pool task "${task}"`);
      run = start(input);
    } catch (e) {
      startError = String(e);
    }
    for (let c = Atomics.add(state, 0, 1); c < Atomics.load(state, 2); c = Atomics.add(state, 0, 1)) {
      const from = c * chunkSize;
      const to = Math.min(Atomics.load(state, 3), from + chunkSize);
      // Fewer results than asked: the task found no more items (a job posted before they were counted).
      let last = false;
      try {
        if (!run) throw new Error(startError);
        const out = run(from, to);
        last = out.length < to - from;
        port.postMessage({ chunk: c, out });
      } catch (e) {
        // The main thread does this chunk again itself.
        port.postMessage({ chunk: c, error: String(e) });
      }
      // Posted before counted: when the main thread sees the count, the message is in its port's queue.
      Atomics.add(state, 1, 1);
      Atomics.notify(state, 1);
      if (last) break;
      opts.afterChunk?.();
    }
    port.close();
    parent.close();
  });
  // Its modules are loaded (this runs after every import): say so once (`warmPoolLoaded`).
  parent.postMessage('loaded');
}
