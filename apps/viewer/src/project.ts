import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { loadProject, type RunView } from '@ckpt/core';
import { type LoadDiff, type RunDelta, RunDiffer, runKey } from './delta.js';
import type { LoadMessage, LoadRequest } from './load-worker.js';

/** Loads the runs of a directory; injectable so tests and benchmarks can serve RunViews they build. */
export type LoadRuns = (dir: string) => RunView[];

/** A JSON body serialised once per load, with its entity tag. */
export interface CachedBody {
  readonly body: string;
  readonly etag: string;
}

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

/** How loads run: on a loader thread (the default), or on this thread (an injected `load`, or no worker file). */
interface Loader {
  load(paths: readonly string[] | undefined): void;
  close(): Promise<void>;
}

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
 * changed. JSON bodies are serialised once per change of their run, so many clients cost one `JSON.stringify`.
 */
export class ProjectState {
  /** Bumped on every load that changed something. */
  version = 0;
  /** The watcher's backend, once it watches (shown in `/api/progress`). */
  watcher: string | undefined;
  private runs: RunView[] = [];
  private index = new Map<string, RunView>();
  private bodies = new Map<string, CachedBody>();
  private listeners = new Set<(event: ProjectEvent) => void>();
  private loader: Loader | undefined;
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
    if (this.loader) return;
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

  progress(): LoadProgress {
    return {
      ...this.status,
      elapsedMs: Math.round(this.startedAt ? performance.now() - this.startedAt : 0),
      runs: this.runs.length,
      ...(this.watcher ? { watcher: this.watcher } : {}),
    };
  }

  /** Every run, newest first, as of the last load (empty before the first ends). */
  all(): readonly RunView[] {
    return this.runs;
  }

  /** One run by dialect and exact id. */
  get(dialect: string, id: string): RunView | undefined {
    return this.index.get(`${dialect}/${id}`);
  }

  /** The serialised JSON of a document, built at most once per change (its key names the run it depends on). */
  body(key: string, build: () => unknown): CachedBody {
    let b = this.bodies.get(key);
    if (!b) {
      b = this.bodyOf(build());
      this.bodies.set(key, b);
    }
    return b;
  }

  /** A body with its entity tag, not kept (for small documents built per request). */
  bodyOf(doc: unknown): CachedBody {
    const body = JSON.stringify(doc);
    return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
  }

  /** The watcher saw these paths change: load again (once per burst; queued behind a load in progress). */
  changed(paths?: Iterable<string>): void {
    this.request(paths ? [...paths] : undefined);
  }

  onChange(listener: (event: ProjectEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    await this.loader?.close();
    this.listeners.clear();
  }

  private emit(event: ProjectEvent): void {
    for (const l of this.listeners) l(event);
  }

  private request(paths: readonly string[] | undefined): void {
    if (!this.loader) return;
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

  private loaded(diff: LoadDiff | undefined, error: string | undefined, ms: number): void {
    this.loading = false;
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
    if (this.queued !== null) {
      const q = this.queued;
      this.queued = null;
      this.request(q ? [...q] : undefined);
    }
  }

  private apply(diff: LoadDiff): void {
    const next = new Map<string, RunView>();
    for (const r of diff.changed) next.set(runKey(r), r);
    const runs: RunView[] = [];
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
    let closed = false;
    return {
      load: () => {
        // Still this thread, but after the current request: `listen` returns and the address prints first.
        setImmediate(() => {
          if (closed) return;
          const t0 = performance.now();
          let diff: LoadDiff | undefined;
          let error: string | undefined;
          try {
            diff = differ.diff(load(this.dir));
          } catch (e) {
            error = (e as Error)?.message ?? String(e);
          }
          this.loaded(diff, error, performance.now() - t0);
        });
      },
      close: async () => {
        closed = true;
      },
    };
  }

  private threadLoader(script: string): Loader {
    const worker = new Worker(script, { workerData: { dir: this.dir } });
    worker.unref();
    let closed = false;
    worker.on('message', (m: LoadMessage) => {
      if (m.type === 'progress') this.setMessage(m.message);
      else if (m.type === 'loaded') this.loaded(m.diff, undefined, m.ms);
      else this.loaded(undefined, m.message, 0);
    });
    worker.on('error', (e) => {
      if (!closed) this.loaded(undefined, e.message, 0);
    });
    // A loader thread that died (out of memory, a crash): load on this thread from now on.
    worker.on('exit', () => {
      if (closed) return;
      this.loader = this.localLoader(this.load ?? ((d) => loadProject(d, { confineTo: d })));
      if (this.loading) {
        this.loading = false;
        this.request(undefined);
      }
    });
    return {
      load: (paths) =>
        worker.postMessage({ type: 'load', ...(paths ? { paths } : {}) } satisfies LoadRequest),
      close: async () => {
        closed = true;
        await worker.terminate();
      },
    };
  }
}
