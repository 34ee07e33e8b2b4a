import { type FSWatcher, watch } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

export interface ProjectWatcher {
  /** Watches the current roots (call after a load: runs may have appeared in new directories). */
  refresh(roots: readonly string[]): void;
  close(): void;
}

export interface WatchOptions {
  /** Quiet time after the last event before reporting (ms). */
  readonly debounceMs?: number;
  /** Longest wait under a steady stream of events (ms), so pages still update within a second. */
  readonly maxWaitMs?: number;
  readonly onError?: (error: Error) => void;
}

const IGNORED = /(^|[\\/])(node_modules|\.git)([\\/]|$)/;

function inside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..');
}

/**
 * Watches a project for checkpoint changes and calls `onChange` once per burst. It watches each run root
 * recursively and the project directory and each root's parent shallowly (so new roots and new run directories
 * are seen) rather than the whole project, which may hold node_modules.
 */
export function watchProject(dir: string, onChange: () => void, opts: WatchOptions = {}): ProjectWatcher {
  const debounceMs = opts.debounceMs ?? 120;
  const maxWaitMs = opts.maxWaitMs ?? 500;
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let first = 0;
  let closed = false;

  const fire = () => {
    timer = undefined;
    first = 0;
    if (!closed) onChange();
  };
  const poke = (name: string | null) => {
    if (name && IGNORED.test(name)) return;
    const now = Date.now();
    if (first === 0) first = now;
    if (timer) clearTimeout(timer);
    timer = setTimeout(fire, Math.max(0, Math.min(debounceMs, first + maxWaitMs - now)));
  };
  const add = (path: string, recursive: boolean) => {
    const key = `${recursive ? 'r' : 's'}:${path}`;
    if (watchers.has(key)) return;
    try {
      const w = watch(path, { recursive, persistent: false }, (_e, name) => poke(name?.toString() ?? null));
      w.on('error', (e) => {
        watchers.delete(key);
        w.close();
        opts.onError?.(e);
        poke(null);
      });
      watchers.set(key, w);
    } catch (e) {
      // A root that vanished between discovery and watching; the next refresh settles it.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') opts.onError?.(e as Error);
    }
  };

  const refresh = (roots: readonly string[]) => {
    if (closed) return;
    const base = resolve(dir);
    const wanted = new Set<string>([`s:${base}`]);
    const sorted = [...new Set(roots.map((r) => resolve(r)))].sort();
    const recursive: string[] = [];
    for (const r of sorted) if (!recursive.some((p) => inside(r, p))) recursive.push(r);
    for (const r of recursive) {
      wanted.add(`r:${r}`);
      const parent = dirname(r);
      if (inside(parent, base)) wanted.add(`s:${parent}`);
    }
    for (const [key, w] of watchers)
      if (!wanted.has(key)) {
        w.close();
        watchers.delete(key);
      }
    for (const key of wanted) add(key.slice(2), key.startsWith('r:'));
  };

  return {
    refresh,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
