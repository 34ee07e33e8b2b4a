#!/usr/bin/env node
// `pnpm install:cli [npm flags]`: packs the built @ckpt/cli and installs the tarball globally with npm, which
// puts `ckpt` on the PATH. The package has no dependencies, so this needs no registry; extra arguments go to
// `npm install` (e.g. `--prefix ~/.local` where the global folder is not writable).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packCli } from './pack.mjs';

const dir = mkdtempSync(join(tmpdir(), 'ckpt-pack-'));
try {
  const tgz = packCli(dir);
  const args = ['install', '--global', '--offline', '--no-fund', '--no-audit', ...process.argv.slice(2), tgz];
  process.stderr.write(`npm ${args.join(' ')}\n`);
  // pnpm passes its own settings to scripts as npm_config_* variables that npm warns about: not for npm.
  const env = { ...process.env };
  for (const k of [
    'npm_config_verify_deps_before_run',
    'npm_config_npm_globalconfig',
    'npm_config__jsr_registry',
  ])
    delete env[k];
  const r = spawnSync('npm', args, { stdio: 'inherit', env });
  process.exitCode = r.status ?? 1;
  if (r.status === 0) {
    const where = spawnSync('npm', ['prefix', '--global', ...process.argv.slice(2)], {
      encoding: 'utf8',
      env,
    });
    process.stderr.write(`installed ckpt into ${where.stdout.trim()}/bin (on your PATH?  ckpt --version)\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
