// A worker thread of the pool: takes chunks from the shared counter until none is left, runs the named task on each
// and posts the results (see pool.ts). pool-worker.ts runs it; so does the CLI's bundle when it starts workers from
// its own code-cached file (setPoolWorker).
import { type MessagePort, parentPort } from 'node:worker_threads';
import { poolTasks } from './tasks.js';

/** The job `poolMap` posts to a worker (started ahead by `warmPool`, or for this call). */
interface Job {
  task: string;
  input: unknown;
  count: number;
  chunkSize: number;
  chunks: number;
  state: Int32Array;
  port: MessagePort;
}

/** Serves one job on this worker thread, then lets the thread end. Says once that its modules are loaded. */
export function servePool(): void {
  if (!parentPort) throw new Error('servePool runs on a worker thread');
  const parent = parentPort;
  parent.once('message', ({ task, input, count, chunkSize, chunks, state, port }: Job) => {
    let run: ((from: number, to: number) => unknown[]) | undefined;
    let startError: string | undefined;
    try {
      const start = poolTasks[task];
      if (!start) throw new Error(`no pool task "${task}"`);
      run = start(input);
    } catch (e) {
      startError = String(e);
    }
    for (let c = Atomics.add(state, 0, 1); c < chunks; c = Atomics.add(state, 0, 1)) {
      try {
        if (!run) throw new Error(startError);
        port.postMessage({ chunk: c, out: run(c * chunkSize, Math.min(count, (c + 1) * chunkSize)) });
      } catch (e) {
        // The main thread does this chunk again itself.
        port.postMessage({ chunk: c, error: String(e) });
      }
      // Posted before counted: when the main thread sees the count, the message is in its port's queue.
      Atomics.add(state, 1, 1);
      Atomics.notify(state, 1);
    }
    port.close();
    parent.close();
  });
  // Its modules are loaded (this runs after every import): say so once (`warmPoolLoaded`).
  parent.postMessage('loaded');
}
