import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { isTempName } from '../../fs/atomic.js';
import type { CheckedDocument, TreeContext } from '../dialect.js';
import { isObject, str } from './model.js';

/** One `<id>.json` of a runs directory, readable or not. */
export interface UlpiRunFile {
  readonly name: string;
  readonly path: string;
  readonly doc: CheckedDocument;
  /** The parsed document when it is usable (a JSON object that parsed cleanly). */
  readonly value: Record<string, unknown> | undefined;
  readonly mtimeMs: number;
  /** Why the file is unreadable, when it is. */
  readonly error?: string;
}

/**
 * The `.ulpi/runs` directory for a starting directory: the first ancestor (the directory itself included) that
 * holds one, as the original's run-status does; undefined when none does.
 */
export function findUlpiRunsDir(from: string): string | undefined {
  let d = resolve(from);
  for (let i = 0; i < 60; i++) {
    const p = join(d, '.ulpi', 'runs');
    try {
      if (statSync(p).isDirectory()) return p;
    } catch {
      // Not here: go up.
    }
    const up = dirname(d);
    if (up === d) break;
    d = up;
  }
  return undefined;
}

/** The root of a ulpi file for tree rules: its runs directory (or its `archive/`). */
export function ulpiRootOf(absPath: string): string {
  return dirname(absPath);
}

/** Names of temp files in a runs directory (the original's `<file>.tmp.<pid>`, ckpt's hidden temp names). */
export function ulpiTempFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => isTempName(n) || /\.events-tmp\.\d+$/.test(n))
      .sort();
  } catch {
    return [];
  }
}

const sortKey = (r: UlpiRunFile) =>
  str(r.value, 'updatedAt') || str(r.value, 'createdAt') || new Date(r.mtimeMs).toISOString();

/**
 * Every `*.json` directly in a runs directory (not temp files, not `archive/`), newest first by
 * `updatedAt || createdAt || mtime`, as the original. An unparsable file is kept, with its error, so it can be
 * listed as unreadable while the others still show.
 */
export function loadUlpiRunFiles(dir: string, ctx: TreeContext): UlpiRunFile[] {
  if (!existsSync(dir)) return [];
  const out: UlpiRunFile[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.json') || isTempName(name)) continue;
    const path = join(dir, name);
    let mtimeMs = 0;
    try {
      mtimeMs = statSync(path).mtimeMs;
    } catch {
      // Vanished meanwhile, or a link that leads nowhere: still read it below, which reports why.
    }
    // A directory (or FIFO, device) named like a run file is read too: the reader reports what it is, instead of
    // the run vanishing from the list ("no runs found").
    const doc = ctx.document(path);
    const value = doc.value !== undefined && doc.usable && isObject(doc.value) ? doc.value : undefined;
    const error = value
      ? undefined
      : (doc.findings.find((f) => f.severity === 'error')?.message ?? 'the document is not a JSON object');
    out.push({ name, path, doc, value, mtimeMs, ...(error !== undefined ? { error } : {}) });
  }
  return out.sort((a, b) => {
    const ka = sortKey(a);
    const kb = sortKey(b);
    return kb < ka ? -1 : kb > ka ? 1 : 0;
  });
}

/** The id a run is shown under: its document's id, else its file name without `.json`. */
export function ulpiRunId(r: UlpiRunFile): string {
  return str(r.value, 'id') || basename(r.name, '.json');
}

/**
 * Looks a run up as run-status does: exact id, file name, `<id>.json`, then an id (or file name) prefix.
 * Without a query, the newest readable run.
 */
export function findUlpiRun(runs: readonly UlpiRunFile[], query?: string): UlpiRunFile | undefined {
  if (!query) return runs.find((r) => r.value) ?? runs[0];
  return (
    runs.find((r) => str(r.value, 'id') === query || r.name === query || r.name === `${query}.json`) ??
    runs.find((r) => (str(r.value, 'id') || r.name).startsWith(query))
  );
}
