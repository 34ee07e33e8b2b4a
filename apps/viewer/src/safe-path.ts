import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** Why a path was refused, for the 403/404 message. */
export type Refusal = 'outside' | 'missing' | 'not-a-file';

function within(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/**
 * The real path of a project-relative file, only if it is a regular file inside the project once every symlink
 * is resolved (so neither `..` nor a symlink can reach outside the directory the viewer was given).
 */
export function resolveInside(dir: string, rel: string): { path: string } | { refused: Refusal } {
  if (rel.includes('\0') || isAbsolute(rel) || /^[a-zA-Z]:/.test(rel)) return { refused: 'outside' };
  const base = realpathSync(dir);
  const candidate = resolve(base, rel);
  if (!within(candidate, base)) return { refused: 'outside' };
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch {
    return { refused: 'missing' };
  }
  if (!within(real, base)) return { refused: 'outside' };
  try {
    if (!statSync(real).isFile()) return { refused: 'not-a-file' };
  } catch {
    return { refused: 'missing' };
  }
  return { path: real };
}
