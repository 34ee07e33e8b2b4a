import { readFileSync } from 'node:fs';
import { join } from 'node:path';

let version: string | undefined;

/**
 * The CLI's version, from its package.json: one folder up from tsc's modules (dist/), two from the bundle's
 * chunks (dist/bundle/). Read as a file, not required: a one-file `ckpt validate` has no other use for Node's
 * module loader, and by path, not by URL: a file URL is the only one a one-file run would make (~0.5-2 ms).
 */
export function toolVersion(): string {
  if (version) return version;
  for (const path of ['../../package.json', '../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(join(import.meta.dirname, path), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === '@ckpt/cli' && pkg.version) {
        version = pkg.version;
        return version;
      }
    } catch {
      // Not at this level.
    }
  }
  throw new Error(`cannot find @ckpt/cli's package.json above ${import.meta.url}`);
}
