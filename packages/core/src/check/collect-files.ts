import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const SKIP_DIRS = new Set(['node_modules', '.git']);

/** A file to check: its absolute path, and how reports show it. */
export interface FileRef {
  readonly path: string;
  readonly file: string;
  /** True when the user named the file itself (it is then detected by content too). */
  readonly explicit: boolean;
}

function walk(dir: string, out: string[]): void {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) walk(p, out);
    } else if (e.isFile()) out.push(p);
  }
}

/**
 * Expands files and directories (recursively, skipping node_modules and .git) into file refs, sorted, each file
 * once. Paths that do not exist are returned separately.
 */
export function collectFiles(
  paths: readonly string[],
  cwd = process.cwd(),
): { files: FileRef[]; missing: string[] } {
  const seen = new Map<string, FileRef>();
  const missing: string[] = [];
  const display = (abs: string) => {
    const rel = abs.startsWith(`${cwd}/`) ? abs.slice(cwd.length + 1) : abs;
    return rel.replace(/\\/g, '/');
  };
  for (const p of paths) {
    const abs = resolve(cwd, p);
    let st: import('node:fs').Stats;
    try {
      st = statSync(abs);
    } catch {
      missing.push(p);
      continue;
    }
    if (st.isDirectory()) {
      const found: string[] = [];
      walk(abs, found);
      for (const f of found) if (!seen.has(f)) seen.set(f, { path: f, file: display(f), explicit: false });
    } else seen.set(abs, { path: abs, file: display(abs), explicit: true });
  }
  const files = [...seen.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { files, missing };
}
