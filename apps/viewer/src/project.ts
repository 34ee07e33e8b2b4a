import { createHash } from 'node:crypto';
import { discoverRoots, loadProject, type RunView } from '@ckpt/core';

/** Loads the runs of a directory; injectable so tests and benchmarks can serve RunViews they build. */
export type LoadRuns = (dir: string) => RunView[];

/** A JSON body serialised once per load, with its entity tag. */
export interface CachedBody {
  readonly body: string;
  readonly etag: string;
}

/**
 * The project as the viewer serves it: loaded lazily on the first request after a change, so a burst of file
 * events costs one load, and serialised once per load, so many clients cost one `JSON.stringify`.
 */
export class ProjectState {
  /** Bumped on every change the watcher reports. */
  version = 0;
  private loadedVersion = -1;
  private runs: RunView[] = [];
  private index = new Map<string, RunView>();
  private bodies = new Map<string, CachedBody>();
  private listeners = new Set<(version: number) => void>();

  constructor(
    readonly dir: string,
    private readonly load: LoadRuns = (d) => loadProject(d),
  ) {}

  /** Every run, newest first (loading if files changed since the last load). */
  all(): readonly RunView[] {
    if (this.loadedVersion !== this.version) {
      const v = this.version;
      this.runs = this.load(this.dir);
      this.index = new Map(this.runs.map((r) => [`${r.dialect}/${r.id}`, r]));
      this.bodies.clear();
      this.loadedVersion = v;
    }
    return this.runs;
  }

  /** One run by dialect and exact id. */
  get(dialect: string, id: string): RunView | undefined {
    this.all();
    return this.index.get(`${dialect}/${id}`);
  }

  /** The directories the runs were found in, for the watcher. */
  roots(): string[] {
    try {
      return discoverRoots(this.dir).map((r) => r.root);
    } catch {
      return [];
    }
  }

  /** The serialised JSON of a document, built at most once per load. */
  body(key: string, build: () => unknown): CachedBody {
    this.all();
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

  /** Marks the project changed and tells the listeners (the SSE clients). */
  changed(): void {
    this.version++;
    for (const l of this.listeners) l(this.version);
  }

  onChange(listener: (version: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
