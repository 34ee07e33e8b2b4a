#!/usr/bin/env node
// bundle/ holds the packed @ckpt/cli (what `pnpm pack` in apps/cli puts in the tarball, unpacked): the GitHub
// Action's local mode installs it and the pre-commit hook runs it, so a tag of this repository works with no
// registry. It is made from the built workspace: run `pnpm build` first.
//   node scripts/release/bundle.mjs          rewrite bundle/ from a fresh pack
//   node scripts/release/bundle.mjs --check  fail when bundle/ differs from a fresh pack (CI's drift check)
//   --from-head: pack a build of the last commit (made in a temp copy, installed offline from the pnpm store)
//   instead of the working tree's build, so uncommitted work elsewhere in the checkout stays out of bundle/.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bundleDir = join(repo, 'bundle');
const check = process.argv.includes('--check');

const files = (dir) =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
        .sort()
    : [];

// pnpm pack lists the rewritten workspace: ranges in no fixed order, so package.json is compared as data.
const canonical = (v) =>
  Array.isArray(v)
    ? v.map(canonical)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canonical(v[k])]),
        )
      : v;
const same = (a, b, name) =>
  name === 'package.json'
    ? JSON.stringify(canonical(JSON.parse(a))) === JSON.stringify(canonical(JSON.parse(b)))
    : a.equals(b);

/** A copy of the last commit, installed and with @ckpt/cli built; its apps/cli is what gets packed. */
function buildHead(tmp) {
  const copy = join(tmp, 'head');
  execFileSync('sh', ['-c', `mkdir -p "${copy}" && git -C "${repo}" archive HEAD | tar -x -C "${copy}"`]);
  const run = (cmd, args) => execFileSync(cmd, args, { cwd: copy, stdio: ['ignore', 'ignore', 'inherit'] });
  run('pnpm', ['install', '--offline', '--frozen-lockfile', '--reporter=silent']);
  run('pnpm', [
    'turbo',
    'run',
    'build',
    '--filter=@ckpt/cli',
    '--concurrency=2',
    '--output-logs=errors-only',
  ]);
  return copy;
}

const tmp = mkdtempSync(join(tmpdir(), 'ckpt-bundle-'));
try {
  const source = process.argv.includes('--from-head') ? buildHead(tmp) : repo;
  execFileSync('pnpm', ['pack', '--pack-destination', tmp], {
    cwd: join(source, 'apps/cli'),
    stdio: 'ignore',
  });
  const tgz = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
  execFileSync('tar', ['-xzf', join(tmp, tgz), '-C', tmp]);
  const fresh = join(tmp, 'package');
  if (!check) {
    rmSync(bundleDir, { recursive: true, force: true });
    cpSync(fresh, bundleDir, { recursive: true });
    console.log(`bundle: wrote bundle/ from ${tgz} (${files(bundleDir).length} files)`);
  } else {
    const want = files(fresh);
    const have = files(bundleDir);
    const problems = [
      ...want.filter((f) => !have.includes(f)).map((f) => `missing: bundle/${f}`),
      ...have.filter((f) => !want.includes(f)).map((f) => `not in a fresh pack: bundle/${f}`),
      ...want
        .filter((f) => have.includes(f))
        .filter((f) => !same(readFileSync(join(fresh, f)), readFileSync(join(bundleDir, f)), f))
        .map((f) => `differs: bundle/${f}`),
    ];
    if (problems.length > 0) {
      console.error(`bundle/ is out of date with apps/cli (a fresh pnpm pack):\n  ${problems.join('\n  ')}`);
      console.error('Run `pnpm build && pnpm release:bundle` and commit bundle/.');
      process.exitCode = 1;
    } else console.log(`bundle: bundle/ equals a fresh pack of @ckpt/cli (${want.length} files)`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
