// The `ckpt-installed` suite's command: the packed @ckpt/cli, installed with npm into a temporary prefix (offline:
// the package has no dependencies), so the benchmark times what a user's `ckpt` runs, not the workspace build.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packCli } from '../../../apps/cli/scripts/pack.mjs';

/** Packs and installs the CLI; returns its installed bin script and a function that removes the install. */
export function installCli() {
  const dir = mkdtempSync(join(tmpdir(), 'ckpt-bench-installed-'));
  const tgz = packCli(join(dir, 'pack'));
  const prefix = join(dir, 'prefix');
  execFileSync(
    'npm',
    ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tgz],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  return {
    bin: join(prefix, 'lib', 'node_modules', '@ckpt', 'cli', 'bin', 'ckpt.js'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
