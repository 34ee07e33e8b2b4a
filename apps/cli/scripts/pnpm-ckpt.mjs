#!/usr/bin/env node
// `pnpm ckpt …`: runs the CLI from the folder pnpm was called in. pnpm runs a script in the folder of the
// package.json that defines it (the repository root) and names the caller's folder in INIT_CWD, so without this
// `cd test-fixtures/sample-project && pnpm ckpt status` would read the repository root instead.
// Only this dev entry honours INIT_CWD: npm sets it for every script, and an installed `ckpt` run from a user's
// `npm run` script that changed folder (`cd sub && ckpt status`) must read where it was started.
const from = process.env.INIT_CWD;
if (from) {
  try {
    process.chdir(from);
  } catch (e) {
    process.stderr.write(`ckpt: cannot run in INIT_CWD "${from}": ${e.message}\n`);
    process.exit(3);
  }
}
await import('../bin/ckpt.js');
