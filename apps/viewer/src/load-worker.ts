// The viewer's loader thread: loads the project off the server's thread (so it answers, with progress, while a
// 100,000-file run loads), posts only the heads of the runs that changed since its last load, and builds the JSON
// bodies the server asks for from the runs it holds (one copy of the runs in the process, not two).
import { parentPort, workerData } from 'node:worker_threads';
import { createProjectIndex } from '@ckpt/core';
import { answer, type Query, type Reply, RunTable, reply } from './answer.js';
import { collectGarbage } from './collect-garbage.js';
import { type HeadDiff, headDiff, RunDiffer } from './delta.js';
import type { Encoding } from './encoding.js';

/** What the server asks: a load (the first, or after the watcher reported these paths), or a document. */
export type LoadRequest =
  | { readonly type: 'load'; readonly paths?: readonly string[] }
  | { readonly type: 'query'; readonly id: number; readonly q: Query; readonly encoding?: Encoding };

/** What the loader answers. */
export type LoadMessage =
  | { readonly type: 'progress'; readonly message: string }
  | { readonly type: 'loaded'; readonly diff: HeadDiff; readonly ms: number }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'answer'; readonly id: number; readonly reply: Reply };

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
  const runs = new RunTable();
  let loaded = false;
  port.on('message', (req: LoadRequest) => {
    if (req.type === 'query') {
      let r: Reply;
      try {
        r = reply(answer(runs, dir, req.q), req.encoding);
      } catch (e) {
        r = { status: 500, error: `internal error: ${(e as Error)?.message ?? String(e)}` };
      }
      // Compressed bytes move to the server thread (serialise made them a buffer of their own); text is copied.
      const m: LoadMessage = { type: 'answer', id: req.id, reply: r };
      if ('encoded' in r) port.postMessage(m, [r.encoded.buffer as ArrayBuffer]);
      else post(m);
      return;
    }
    const t0 = performance.now();
    try {
      const whole = !loaded;
      const update = loaded ? index.refresh(req.paths) : index.load();
      loaded = true;
      runs.set(update.runs);
      // Runs the index did not re-derive are the same as before: only the others are compared and posted.
      const diff = differ.diff(update.runs, new Set(update.changed));
      // A whole load's garbage (the first, or after a failed refresh) goes before a page can ask for anything; not
      // a refresh's, which a page showing the change waits for.
      if (whole) collectGarbage();
      post({ type: 'loaded', diff: headDiff(diff), ms: performance.now() - t0 });
    } catch (e) {
      // A refresh that failed half-way may have taken in the paths it was given without deriving their runs: the
      // next request loads everything afresh, so the change is not lost (the server asks again after a pause).
      loaded = false;
      post({ type: 'error', message: (e as Error)?.message ?? String(e) });
    }
  });
}
