import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ReadSource } from './entry.js';

/** Files larger than this are not read for a history (a log that size is not one a person scrolls). */
export const HISTORY_READ_LIMIT = 64 * 1024 * 1024;

const inside = (child: string, parent: string) => {
  const rel = relative(parent, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
};

/**
 * Reads project-relative files as UTF-8, only regular files inside the project once every symlink is resolved
 * (a link leading out reads as missing), never larger than HISTORY_READ_LIMIT.
 */
export function projectReader(projectDir: string): ReadSource {
  let base: string;
  try {
    base = realpathSync.native(projectDir);
  } catch {
    return () => undefined;
  }
  return (path) => {
    if (path.includes('\0') || isAbsolute(path)) return undefined;
    try {
      const real = realpathSync.native(resolve(base, path));
      if (!inside(real, base)) return undefined;
      const st = statSync(real);
      if (!st.isFile() || st.size > HISTORY_READ_LIMIT) return undefined;
      return readFileSync(real, 'utf8');
    } catch {
      return undefined;
    }
  };
}
