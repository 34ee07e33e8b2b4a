import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temporary directory laid out from an object of relative paths to contents. */
export interface TmpTree {
  readonly dir: string;
  path(rel: string): string;
  cleanup(): void;
}

export function tmpTree(files: Record<string, string | Uint8Array> = {}, prefix = 'ckpt-test-'): TmpTree {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [rel, content] of Object.entries(files)) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  return { dir, path: (rel) => join(dir, rel), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
