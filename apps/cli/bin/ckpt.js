#!/usr/bin/env node
// `ckpt validate` with plain arguments skips commander and every other command's module: CI runs it on every
// commit, often on one file, where startup is most of the time. It loads dist/validate.bundle.js (one file, made
// at build time) while that bundle is newer than what it was made from (a rebuilt @ckpt/core makes it stale), and
// the unbundled modules otherwise. Any other command, or arguments the fast path does not take, go to the full
// commander program.
import { statSync } from 'node:fs';

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
  const { fastValidate } = await import(freshBundle() ?? '../dist/commands/validate-fast.js');
  code = await fastValidate(args.slice(1));
}
if (code === undefined) {
  const { main } = await import('../dist/main.js');
  code = await main(process.argv);
}
process.exitCode = code;

function freshBundle() {
  const bundle = new URL('../dist/validate.bundle.js', import.meta.url);
  try {
    const made = statSync(bundle).mtimeMs;
    const sources = [new URL('../dist/commands/validate-fast.js', import.meta.url), coreEntry()];
    return sources.every((s) => statSync(new URL(s)).mtimeMs <= made) ? bundle.href : undefined;
  } catch {
    return undefined;
  }
}

// @ckpt/core's entry. Where the package manager linked it next to this package (the workspace, pnpm), stat it
// there: import.meta.resolve's package lookup costs ~8 ms, a tenth of a one-file validate.
function coreEntry() {
  const near = new URL('../node_modules/@ckpt/core/dist/index.js', import.meta.url);
  try {
    statSync(near);
    return near.href;
  } catch {
    return import.meta.resolve('@ckpt/core');
  }
}
