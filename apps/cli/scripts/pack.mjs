#!/usr/bin/env node
// Packs @ckpt/cli (pnpm pack: `workspace:` versions rewritten; prepack re-bundles dist/bundle/ from the built
// workspace) into a folder, and says where the tarball is. `node scripts/pack.mjs [dir]` prints its path.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const cli = join(import.meta.dirname, '..');

/** Packs the CLI into `dir` and returns the tarball's absolute path (`ckpt-cli-<version>.tgz`). */
export function packCli(dir) {
  const { version } = JSON.parse(readFileSync(join(cli, 'package.json'), 'utf8'));
  const out = join(resolve(dir), `ckpt-cli-${version}.tgz`);
  mkdirSync(resolve(dir), { recursive: true });
  const r = spawnSync('pnpm', ['pack', '--out', out], { cwd: cli, encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(`pnpm pack failed (exit ${r.status}):\n${r.stdout}${r.stderr}${r.error ?? ''}`);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${packCli(process.argv[2] ?? cli)}\n`);
}
