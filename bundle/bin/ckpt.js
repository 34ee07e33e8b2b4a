#!/usr/bin/env node
// The `ckpt` command. It runs the self-contained build in dist/bundle/ (what the packed @ckpt/cli ships: the
// program, core, schemas, validators and the viewer, no dependencies). In the workspace, where tsc's modules sit
// in dist/ beside it, the bundle is used only while it is newer than what it was made from (a rebuilt @ckpt/core
// makes it stale) and the unbundled modules are loaded otherwise: correct, slower.
// `ckpt validate` with plain arguments skips commander and every other command's module (validate.js): CI runs
// it on every commit, often on one file, where startup is most of the time. Any other command, or arguments the
// fast path does not take, go to the full commander program.
import { readdirSync, statSync } from 'node:fs';

// A reader that closes the pipe early (`ckpt … | head`) is not an error: stop quietly, never with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

const args = process.argv.slice(2);
let code;
if (args[0] === 'validate') {
  const bundled = pick('validate.js', 'commands/validate-fast.js', ['core', 'schemas']);
  const { fastValidate } = await import(bundled);
  code = await fastValidate(args.slice(1));
}
if (code === undefined) {
  const { main } = await import(pick('ckpt.js', 'main.js', ['core', 'schemas', 'viewer']));
  code = await main(process.argv);
}
process.exitCode = code;

/**
 * dist/bundle/<bundle> when it is fresh or when there is nothing else (the installed package), else
 * dist/<module>. Fresh: newer than the CLI's own modules and the built entries of the workspace packages it holds.
 */
function pick(bundle, module, packages) {
  const b = new URL(`../dist/bundle/${bundle}`, import.meta.url);
  const m = new URL(`../dist/${module}`, import.meta.url);
  const mod = statSync(m, { throwIfNoEntry: false });
  if (!mod) return b.href;
  const made = statSync(b, { throwIfNoEntry: false })?.mtimeMs ?? -1;
  const notNewer = (url) => (statSync(url, { throwIfNoEntry: false })?.mtimeMs ?? 0) <= made;
  const fresh =
    made >= mod.mtimeMs &&
    // Where pnpm links the workspace packages next to this one: a package lookup through import.meta.resolve
    // costs ~8 ms, a tenth of a one-file validate.
    packages.every((p) => notNewer(new URL(`../node_modules/@ckpt/${p}/dist/index.js`, import.meta.url))) &&
    // The viewer's client is copied into the bundle, and is edited without a build.
    (!packages.includes('viewer') || viewerStatic().every(notNewer));
  return fresh ? b.href : m.href;
}

function viewerStatic() {
  const dir = new URL('../node_modules/@ckpt/viewer/static/', import.meta.url);
  try {
    return readdirSync(dir).map((name) => new URL(name, dir));
  } catch {
    return [];
  }
}
