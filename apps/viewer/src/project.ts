import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { loadProject, type RunView } from '@ckpt/core';
import { answer, type CachedBody, cacheKey, type Query, type Reply, RunTable, reply } from './answer.js';
import {
  type HeadDiff,
  headDiff,
  lookupRun,
  type RunDelta,
  RunDiffer,
  type RunHead,
  runKey,
} from './delta.js';
import type { Encoding } from './encoding.js';
import type { LoadMessage, LoadRequest } from './load-worker.js';

export type { CachedBody, Reply } from './answer.js';

/** Loads the runs of a directory; injectable so tests and benchmarks can serve RunViews they build. */
export type LoadRuns = (dir: string) => RunView[];

/** Where the first load is: pages show this until the project is ready. */
export interface LoadProgress {
  readonly state: 'loading' | 'ready' | 'error';
  /** What the loader does now (e.g. `reading team runs in .team/runs`). */
  readonly message: string;
  /** Since the first load started. */
  readonly elapsedMs: number;
  /** Runs known so far (0 until the first load ends). */
  readonly runs: number;
  /** Loads finished since start. */
  readonly loads: number;
  /** How long the last load took (ms). */
  readonly lastLoadMs?: number;
  readonly error?: string;
  /** Which watcher follows the files (`parcel`, `fs.watch`), once it watches. */
  readonly watcher?: string;
}

/** What SSE clients are told: a load changed these runs (each with the units that changed). */
export interface ChangeEvent {
  readonly version: number;
  readonly deltas: readonly RunDelta[];
}

export type ProjectEvent =
  | { readonly type: 'change'; readonly change: ChangeEvent }
  | { readonly type: 'progress'; readonly progress: LoadProgress };

/**
 * How loads run and documents are built: on a loader thread (the default; the runs live there), or on this thread
 * (an injected `load`, or no worker file).
 */
interface Loader {
  load(paths: readonly string[] | undefined): void;
  query(q: Query, encoding: Encoding | undefined): Promise<Reply>;
  close(): Promise<void>;
}

/**
 * After a later load failed, the next is tried after this long, doubling while it keeps failing, at most this many
 * times in a row (a failure that stays waits for the next change, which loads everything afresh).
 */
const RETRY_MS = 1000;
const MAX_RETRIES = 5;

const WORKER_FILE = 'load-worker.js';

/** The loader thread's script: beside this module (dist/, or the CLI bundle's folder), or dist/ from sources. */
function workerScript(): string | undefined {
  for (const u of [
    new URL(WORKER_FILE, import.meta.url),
    new URL(`../dist/${WORKER_FILE}`, import.meta.url),
  ]) {
    if (u.protocol !== 'file:') continue;
    const p = fileURLToPath(u);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/**
 * The project as the viewer serves it. The first load starts at once and runs in the background (on a loader
 * thread), so the server answers while it loads; each later load (after the watcher reports changes; a burst
 * during a load queues one more) replaces only the runs that changed and tells the listeners which runs and units
 * changed. The runs stay on the loader thread: this thread keeps each run's head, and asks the loader for the JSON
 * bodies (`query`), which it keeps until their run changes, so many clients cost one `JSON.stringify`.
 */
export class ProjectState {
  /** Bumped on every load that changed something. */
  version = 0;
  /** The watcher's backend, once it watches (shown in `/api/progress`). */
  watcher: string | undefined;
  private runs: RunHead[] = [];
  private index = new Map<string, RunHead>();
  private bodies = new Map<string, CachedBody>();
  private pending = new Map<string, Promise<Reply>>();
  private retries = 0;
  private retry: NodeJS.Timeout | undefined;
  private listeners = new Set<(event: ProjectEvent) => void>();
  private loader: Loader | undefined;
  /** Set by `close`: no load starts after it. */
  private closed = false;
  private loading = false;
  private queued: Set<string> | undefined | null = null;
  private readyPromise: Promise<void>;
  private markReady!: () => void;
  private startedAt = 0;
  private status: Omit<LoadProgress, 'elapsedMs' | 'runs'> = {
    state: 'loading',
    message: 'starting',
    loads: 0,
  };

  constructor(
    readonly dir: string,
    private readonly load?: LoadRuns,
  ) {
    this.readyPromise = new Promise((ok) => {
      this.markReady = ok;
    });
  }

  /** Whether the first load has started. */
  get started(): boolean {
    return this.loader !== undefined;
  }

  /** Starts the first load (idempotent). */
  start(opts: { thread?: boolean } = {}): void {
    if (this.loader || this.closed) return;
    this.startedAt = performance.now();
    const script = this.load || opts.thread === false ? undefined : workerScript();
    this.loader = script
      ? this.threadLoader(script)
      : this.localLoader(this.load ?? ((d) => loadProject(d, { confineTo: d })));
    this.request(undefined);
  }

  /**
   * Resolves when the first load has ended (or failed: then every run list is empty and progress says why). The
   * load itself begins with `start` (the viewer calls it once its watcher watches).
   */
  ready(): Promise<void> {
    return this.readyPromise;
  }

  get isReady(): boolean {
    return this.status.state !== 'loading';
  }

  /** Whether a load runs or waits to run (the watcher reported changes not shown yet). */
  get busy(): boolean {
    return this.loading || this.queued !== null || this.retry !== undefined;
  }

  progress(): LoadProgress {
    return {
      ...this.status,
      elapsedMs: Math.round(this.startedAt ? performance.now() - this.startedAt : 0),
      runs: this.runs.length,
      ...(this.watcher ? { watcher: this.watcher } : {}),
    };
  }

  /** Every run's head, newest first, as of the last load (empty before the first ends). */
  all(): readonly RunHead[] {
    return this.runs;
  }

  /** One run's head by dialect and exact id (`lookupRun`). */
  get(dialect: string, id: string): RunHead | undefined {
    return lookupRun(this.index, this.runs, dialect, id);
  }

  /**
   * The JSON body a query asks for, built where the runs are, compressed there in `encoding` when the client
   * accepts one (see `acceptedEncoding`); documents of a run are kept until it changes (see `cacheKey`), one per
   * encoding, and one build serves every request that asks for it meanwhile.
   */
  async query(q: Query, encoding?: Encoding): Promise<Reply> {
    const what = cacheKey(q);
    if (what === undefined) return this.ask(q, encoding);
    // `<encoding>|<what>`: the key still ends with the run's `:<dialect>/<id>` (see `apply`).
    const key = `${encoding ?? 'identity'}|${what}`;
    const kept = this.bodies.get(key);
    if (kept) return kept;
    let p = this.pending.get(key);
    if (!p) {
      const version = this.loads;
      p = this.ask(q, encoding).then((r) => {
        if (this.pending.get(key) === p) this.pending.delete(key);
        // Kept only if no load landed meanwhile (it may have changed the run; the next request asks again).
        if ('etag' in r && version === this.loads) this.bodies.set(key, r);
        return r;
      });
      this.pending.set(key, p);
    }
    return p;
  }

  private ask(q: Query, encoding: Encoding | undefined): Promise<Reply> {
    if (!this.loader) return Promise.resolve({ status: 503, error: 'the project is not loaded yet' });
    return this.loader.query(q, encoding);
  }

  /** Loads that ended (bodies built before the last one may be out of date). */
  private loads = 0;

  /** The watcher saw these paths change: load again (once per burst; queued behind a load in progress). */
  changed(paths?: Iterable<string>): void {
    this.request(paths ? [...paths] : undefined);
  }

  onChange(listener: (event: ProjectEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Stops loading: a load in progress (the first one too) is cancelled, not waited for (the loader thread, the core
   * load it runs and the read-ahead workers of that load are terminated), and nothing is loaded or told after.
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.listeners.clear();
    await this.loader?.close();
  }

  private emit(event: ProjectEvent): void {
    for (const l of this.listeners) l(event);
  }

  private request(paths: readonly string[] | undefined): void {
    if (!this.loader || this.closed) return;
    if (this.loading) {
      // One more load after this one; `undefined` (everything) wins over a list of paths.
      if (this.queued === null) this.queued = paths ? new Set(paths) : undefined;
      else if (this.queued && paths) for (const p of paths) this.queued.add(p);
      else this.queued = undefined;
      return;
    }
    this.loading = true;
    this.loader.load(paths);
  }

  private loaded(diff: HeadDiff | undefined, error: string | undefined, ms: number): void {
    this.loading = false;
    this.loads++;
    const first = !this.isReady;
    if (diff) this.apply(diff);
    this.status = {
      state: error && first ? 'error' : 'ready',
      message: error ? `the load failed: ${error}` : 'ready',
      loads: this.status.loads + 1,
      lastLoadMs: Math.round(ms),
      ...(error ? { error } : {}),
    };
    if (first) {
      this.markReady();
      this.emit({ type: 'progress', progress: this.progress() });
    }
    if (diff && diff.deltas.length > 0) {
      this.version++;
      this.emit({ type: 'change', change: { version: this.version, deltas: diff.deltas } });
    }
    // A later load that failed may have left a change unseen: the loader starts afresh at its next load, which
    // comes with the next change or, at the latest, after a pause (longer while loads keep failing).
    if (!error) this.retries = 0;
    else if (!first && this.queued === null && !this.retry && this.retries < MAX_RETRIES) {
      this.retry = setTimeout(
        () => {
          this.retry = undefined;
          this.request(undefined);
        },
        RETRY_MS * 2 ** this.retries++,
      );
      this.retry.unref();
    }
    if (this.queued !== null) {
      const q = this.queued;
      this.queued = null;
      this.request(q ? [...q] : undefined);
    }
  }

  private apply(diff: HeadDiff): void {
    const next = new Map<string, RunHead>();
    for (const r of diff.changed) next.set(runKey(r), r);
    const runs: RunHead[] = [];
    for (const key of diff.order) {
      const r = next.get(key) ?? this.index.get(key);
      if (r) runs.push(r);
    }
    for (const d of diff.deltas) {
      // Bodies are keyed `<kind>:<dialect>/<id>`; the lists (`runs`, `summaries`) change with any run.
      for (const k of this.bodies.keys())
        if (k.endsWith(`:${d.key}`) || !k.includes(':')) this.bodies.delete(k);
    }
    this.runs = runs;
    this.index = new Map(runs.map((r) => [runKey(r), r]));
  }

  private setMessage(message: string): void {
    if (this.status.state !== 'loading') return;
    this.status = { ...this.status, message };
    this.emit({ type: 'progress', progress: this.progress() });
  }

  private localLoader(load: LoadRuns): Loader {
    const differ = new RunDiffer();
    const runs = new RunTable();
    let closed = false;
    return {
      load: () => {
        // Still this thread, but after the current request: `listen` returns and the address prints first.
        setImmediate(() => {
          if (closed) return;
          const t0 = performance.now();
          let diff: HeadDiff | undefined;
          let error: string | undefined;
          try {
            const all = load(this.dir);
            diff = headDiff(differ.diff(all));
            runs.set(all);
          } catch (e) {
            error = (e as Error)?.message ?? String(e);
          }
          this.loaded(diff, error, performance.now() - t0);
        });
      },
      query: async (q, encoding) => reply(answer(runs, this.dir, q), encoding),
      close: async () => {
        closed = true;
      },
    };
  }

  private threadLoader(script: string): Loader {
    const worker = new Worker(script, { workerData: { dir: this.dir } });
    worker.unref();
    let closed = false;
    let asked = 0;
    const waiting = new Map<number, (r: Reply) => void>();
    worker.on('message', (m: LoadMessage) => {
      if (m.type === 'progress') this.setMessage(m.message);
      else if (m.type === 'answer') {
        const done = waiting.get(m.id);
        waiting.delete(m.id);
        done?.(m.reply);
      } else if (m.type === 'loaded') this.loaded(m.diff, undefined, m.ms);
      else this.loaded(undefined, m.message, 0);
    });
    worker.on('error', (e) => {
      if (!closed) this.loaded(undefined, e.message, 0);
    });
    // A loader thread that died (out of memory, a crash): load on this thread from now on.
    worker.on('exit', () => {
      for (const done of waiting.values()) done({ status: 503, error: 'the loader stopped; try again' });
      waiting.clear();
      if (closed) return;
      this.loader = this.localLoader(this.load ?? ((d) => loadProject(d, { confineTo: d })));
      this.loading = false;
      this.request(undefined);
    });
    return {
      load: (paths) =>
        worker.postMessage({ type: 'load', ...(paths ? { paths } : {}) } satisfies LoadRequest),
      query: (q, encoding) =>
        new Promise((done) => {
          const id = ++asked;
          waiting.set(id, done);
          worker.postMessage({
            type: 'query',
            id,
            q,
            ...(encoding ? { encoding } : {}),
          } satisfies LoadRequest);
        }),
      close: async () => {
        closed = true;
        await worker.terminate();
      },
    };
  }
}
