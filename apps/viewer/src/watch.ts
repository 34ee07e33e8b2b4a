import { type Dirent, type FSWatcher, lstatSync, readdirSync, realpathSync, watch } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { type ParcelBackend, parcelBackend } from './parcel-backend.js';

/** Which watcher follows the project: the native one, or the per-directory `fs.watch` fallback. */
export type WatchBackend = 'parcel' | 'fs.watch';

export interface ProjectWatcher {
  readonly backend: WatchBackend;
  close(): Promise<void>;
}

export interface WatchOptions {
  /** Quiet time after the last event before reporting (ms). */
  readonly debounceMs?: number;
  /** Longest wait under a steady stream of events (ms), so pages still update within a second. */
  readonly maxWaitMs?: number;
  /** Force a backend (tests of the fallback); default: @parcel/watcher when it loads, else fs.watch. */
  readonly backend?: WatchBackend;
  /** The fallback watches at most this many directories (each costs an inotify watch); default 20,000. */
  readonly maxDirs?: number;
  readonly onError?: (error: Error) => void;
}

/** Folders no checkpoint lives in, and which can be huge. */
const IGNORED_NAMES = new Set(['node_modules', '.git', '.hg', '.svn']);
const IGNORED = /(^|[\\/])(node_modules|\.git|\.hg|\.svn)([\\/]|$)/;

/** The native watcher's API, as far as the viewer uses it (typed here: the module is optional). */
interface ParcelWatcher {
  subscribe(
    dir: string,
    fn: (err: Error | null, events: { path: string; type: string }[]) => void,
    opts?: { ignore?: string[]; backend?: ParcelBackend },
  ): Promise<{ unsubscribe(): Promise<void> }>;
}

/**
 * @parcel/watcher, when it loads: an optional dependency of the CLI (a native module the bundle cannot inline), so
 * a platform without a prebuilt binary, or an install without optional dependencies, falls back to fs.watch.
 */
async function loadParcel(): Promise<ParcelWatcher | undefined> {
  try {
    const name = '@parcel/watcher';
    const mod = (await import(name)) as { default?: ParcelWatcher } & ParcelWatcher;
    return typeof mod.subscribe === 'function' ? mod : mod.default;
  } catch {
    return undefined;
  }
}

/** @parcel/watcher's options: the backend only when one is named, so that otherwise it chooses as it always did. */
function parcelOptions(ignore: string[], backend: ParcelBackend | undefined) {
  return backend ? { ignore, backend } : { ignore };
}

/**
 * The folders @parcel/watcher should skip, as paths: node_modules and VCS folders in the top levels of the project
 * (deeper ones sit inside those). Paths, not globs: `**\/node_modules` makes it match every file of the tree
 * against the glob (3 s more on 100,000 files).
 */
function ignoredDirs(base: string, depth = 3): string[] {
  const out: string[] = [];
  const walk = (d: string, left: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      if (IGNORED_NAMES.has(e.name)) out.push(join(d, e.name));
      else if (left > 0) walk(join(d, e.name), left - 1);
    }
  };
  walk(base, depth);
  return out;
}

/**
 * Watches a whole project (minus node_modules and VCS folders) and calls `onChange` once per burst with the
 * absolute paths that changed. Both backends watch directories, not files, so a file replaced by rename (as every
 * atomic writer does) and then edited in place is seen each time, and so are runs created or deleted and folders
 * made after start.
 */
export async function watchProject(
  dir: string,
  onChange: (paths: ReadonlySet<string>) => void,
  opts: WatchOptions = {},
): Promise<ProjectWatcher> {
  const base = resolve(dir);
  const debounceMs = opts.debounceMs ?? 60;
  const maxWaitMs = opts.maxWaitMs ?? 250;
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let first = 0;
  let closed = false;

  const fire = () => {
    timer = undefined;
    first = 0;
    const paths = pending;
    pending = new Set();
    if (!closed && paths.size > 0) onChange(paths);
  };
  const poke = (path: string) => {
    if (closed || IGNORED.test(path.slice(base.length))) return;
    pending.add(path);
    const now = Date.now();
    if (first === 0) first = now;
    if (timer) clearTimeout(timer);
    timer = setTimeout(fire, Math.max(0, Math.min(debounceMs, first + maxWaitMs - now)));
  };
  const stop = () => {
    closed = true;
    if (timer) clearTimeout(timer);
  };

  const parcel = opts.backend === 'fs.watch' ? undefined : await loadParcel();
  if (parcel) {
    try {
      // @parcel/watcher cannot watch a path that is a symlink (inotify is asked not to follow links), and FSEvents
      // reports real paths: it watches the real folder, and its paths are told under the name the project was
      // given (the index knows its files by that name).
      const real = realpathSync(base);
      const named =
        real === base ? (p: string) => p : (p: string) => (within(p, real) ? base + p.slice(real.length) : p);
      // @parcel/watcher on Linux does not watch folders made after it started when they come several at once
      // (`mkdir -p a/b/c`: only `a` is reported, nothing below it ever is). Folders it reports created get
      // per-folder fs.watch watches of their own, so a run made in a new folder is followed like any other.
      const late = dirWatcher(poke, opts);
      let backend: WatchBackend = 'parcel';
      let failed = false;
      const sub = await parcel.subscribe(
        real,
        (err, events) => {
          if (err) {
            // The native watcher reports an error only when it stopped (its thread failed, e.g. inotify could
            // not be read): from now on the folders are watched one by one, and everything is looked at again,
            // since changes may have gone unreported.
            if (!failed && !closed) {
              failed = true;
              backend = 'fs.watch';
              late.add(base);
              poke(base);
            }
            opts.onError?.(err);
            return;
          }
          for (const e of events) {
            const path = named(e.path);
            poke(path);
            if (e.type === 'create' && !IGNORED.test(path.slice(base.length))) late.add(path);
          }
        },
        parcelOptions(ignoredDirs(real), parcelBackend()),
      );
      return {
        get backend() {
          return backend;
        },
        async close() {
          stop();
          late.close();
          await sub.unsubscribe().catch(() => undefined);
        },
      };
    } catch (e) {
      // A native watcher that loads but cannot watch (e.g. out of inotify instances): the fallback may still work.
      opts.onError?.(e as Error);
    }
  }
  return watchDirs(base, poke, stop, opts);
}

/**
 * The fallback: one non-recursive fs.watch per directory (Node 20's recursive fs.watch on Linux walks and stats
 * every file: 25 s and 300 MB on 100,000 files). Directory watches report renames into and out of them, and a
 * directory that appears is watched (with what it already holds) as soon as its parent reports it.
 */
function watchDirs(
  base: string,
  poke: (path: string) => void,
  stop: () => void,
  opts: WatchOptions,
): ProjectWatcher {
  const dirs = dirWatcher(poke, opts);
  dirs.add(base);
  return {
    backend: 'fs.watch',
    async close() {
      stop();
      dirs.close();
    },
  };
}

/** Per-directory fs.watch watches, added folder by folder (with every folder below), each once per inode. */
function dirWatcher(poke: (path: string) => void, opts: WatchOptions) {
  const maxDirs = opts.maxDirs ?? 20_000;
  const watchers = new Map<string, { w: FSWatcher; ino: number }>();
  let warned = false;

  const add = (d: string) => {
    let ino: number;
    try {
      const st = lstatSync(d);
      // Directories only: a watch on a file would not follow it across a rename.
      if (!st.isDirectory()) return;
      ino = st.ino;
    } catch {
      return;
    }
    const held = watchers.get(d);
    if (held?.ino === ino) return;
    // A folder deleted and made again under the same name: its old watch is dead.
    held?.w.close();
    watchers.delete(d);
    if (watchers.size >= maxDirs) {
      if (!warned) opts.onError?.(new Error(`watching the first ${maxDirs} folders only`));
      warned = true;
      return;
    }
    let entries: Dirent[];
    try {
      const w = watch(d, { persistent: false }, (_event, name) => {
        const path = name ? join(d, name.toString()) : d;
        poke(path);
        // A folder that appeared (or was replaced by rename): watch it and what it holds.
        if (name && !IGNORED_NAMES.has(name.toString())) add(path);
      });
      w.on('error', () => {
        // The folder was deleted (or became unreadable): forget it; its parent reports the deletion.
        w.close();
        if (watchers.get(d)?.w === w) watchers.delete(d);
        poke(d);
      });
      watchers.set(d, { w, ino });
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      // Gone already, or unreadable.
      return;
    }
    for (const e of entries) if (e.isDirectory() && !IGNORED_NAMES.has(e.name)) add(join(d, e.name));
  };
  return {
    add,
    close() {
      for (const { w } of watchers.values()) w.close();
      watchers.clear();
    },
  };
}

/** Whether `p` is `dir` or inside it. */
function within(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);
}
