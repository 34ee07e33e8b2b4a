import { createRequire } from 'node:module';

let version: string | undefined;

/**
 * The CLI's version, from its package.json: one folder up from tsc's modules (dist/), two from the bundle's
 * chunks (dist/bundle/).
 */
export function toolVersion(): string {
  if (version) return version;
  const require = createRequire(import.meta.url);
  for (const path of ['../package.json', '../../package.json']) {
    try {
      const pkg = require(path) as { name?: string; version?: string };
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
