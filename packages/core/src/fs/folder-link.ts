import { lstatSync, realpathSync } from 'node:fs';
import { sep } from 'node:path';
import type { Finding } from '../findings/finding.js';

/** The message (after the folder's display path) of a folder that is a symbolic link out of the project. */
export const OUTSIDE_REASON = 'resolves through a symbolic link to a folder outside the project; not read';

/** True when the real path of `path` is outside `confineTo` (both resolved); false when either cannot be. */
export function resolvesOutside(path: string, confineTo: string): boolean {
  try {
    const real = realpathSync(path);
    const base = realpathSync(confineTo);
    return real !== base && !real.startsWith(base.endsWith(sep) ? base : base + sep);
  } catch {
    return false; // gone or unreadable: the loader says so
  }
}

/**
 * True when the folder `dir` is itself a symbolic link (one lstat) that resolves outside `confineTo`: its entries
 * are then never listed, so not even the names of files outside the project are shown. A plain folder is not
 * resolved (a folder below a link is found at the link).
 */
export function folderLinkedOutside(dir: string, confineTo: string | undefined): boolean {
  if (confineTo === undefined) return false;
  try {
    if (!lstatSync(dir).isSymbolicLink()) return false;
  } catch {
    return false;
  }
  return resolvesOutside(dir, confineTo);
}

/** The one finding of a folder linked outside the project: at the folder's path, line 1 column 1. */
export function outsideFolderFinding(file: string): Finding {
  return {
    code: 'io/outside-project',
    severity: 'error',
    message: `${file} ${OUTSIDE_REASON}`,
    file,
    pointer: '',
    line: 1,
    column: 1,
  };
}
