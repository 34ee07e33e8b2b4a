// The viewer's loader thread: loads the project off the server's thread (so it answers, with progress, while a
// 100,000-file run loads) and posts only the runs that changed since its last load.
import { parentPort, workerData } from 'node:worker_threads';
import { loadProject } from '@ckpt/core';
import { RunDiffer } from './delta.js';

/** What the server asks: a load (the first, or after the watcher reported these paths). */
export interface LoadRequest {
  readonly type: 'load';
  readonly paths?: readonly string[];
}

/** What the loader answers. */
export type LoadMessage =
  | { readonly type: 'progress'; readonly message: string }
  | {
      readonly type: 'loaded';
      readonly diff: import('./delta.js').LoadDiff;
      readonly ms: number;
    }
  | { readonly type: 'error'; readonly message: string };

const port = parentPort;
if (port) {
  const { dir } = workerData as { dir: string };
  const differ = new RunDiffer();
  const post = (m: LoadMessage) => port.postMessage(m);
  port.on('message', (req: LoadRequest) => {
    if (req.type !== 'load') return;
    const t0 = performance.now();
    try {
      const runs = loadProject(dir, {
        onProgress: (message) => post({ type: 'progress', message }),
        confineTo: dir, // never read through a symlink out of the project (io/outside-project)
      });
      post({ type: 'loaded', diff: differ.diff(runs), ms: performance.now() - t0 });
    } catch (e) {
      post({ type: 'error', message: (e as Error)?.message ?? String(e) });
    }
  });
}
