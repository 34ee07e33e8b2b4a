import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './run-cli.js';

describe('ckpt --version', () => {
  it('should print the version of @ckpt/cli and exit 0', () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'apps/cli/package.json'), 'utf8'));
    for (const flag of ['--version', '-V']) {
      const r = runCli([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${version}\n`);
    }
  });
});
