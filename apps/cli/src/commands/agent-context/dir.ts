import { statSync } from 'node:fs';
import { InputError } from '../../usage-error.js';

/** A directory argument that must exist. */
export function existingDir(dir: string): string {
  try {
    if (statSync(dir).isDirectory()) return dir;
  } catch {
    // reported below
  }
  throw new InputError(`no such directory: ${dir}`);
}
