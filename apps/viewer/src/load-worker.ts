// The viewer's loader thread: loads the project off the server's thread (so it answers, with progress, while a
// 100,000-file run loads) and posts only the runs that changed since its last load.
import { parentPort, workerData } from 'node:worker_threads';
import { createProjectIndex } from '@ckpt/core';
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
  const post = (m: LoadMessage) => port.postMessage(m);
  // The incremental index: the first request loads everything; later ones re-read only the files the watcher
  // named (and re-derive only their runs), or compare every file by size, mtime and inode when it named none.
  const index = createProjectIndex(dir, {
    onProgress: (message) => post({ type: 'progress', message }),
    confineTo: dir, // never read through a symlink out of the project (io/outside-project)
  });
  const differ = new RunDiffer();
  let loaded = false;
  port.on('message', (req: LoadRequest) => {
    if (req.type !== 'load') return;
    const t0 = performance.now();
    try {
      const update = loaded ? index.refresh(req.paths) : index.load();
      loaded = true;
      // Runs the index did not re-derive are the same as before: only the others are compared and posted.
      const diff = differ.diff(update.runs, new Set(update.changed));
      post({ type: 'loaded', diff, ms: performance.now() - t0 });
    } catch (e) {
      post({ type: 'error', message: (e as Error)?.message ?? String(e) });
    }
  });
}
