#!/usr/bin/env node
// Bundles the `ckpt validate` fast path (dist/commands/validate-fast.js, with @ckpt/core and the reporters) into
// one file, dist/validate.bundle.js. Loading ~100 ES modules one by one costs Node more than checking a file
// does; one bundle loads in a few milliseconds. Schemas, the catalog and the precompiled validators stay outside
// (loaded on demand from @ckpt/schemas), and so does tinyglobby (imported only for glob arguments).
// bin/ckpt.js uses the bundle only while it is newer than the files it was made from.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { rolldown } from 'rolldown';

const dist = join(import.meta.dirname, '..', 'dist');
const input = join(dist, 'commands', 'validate-fast.js');
const bundle = await rolldown({
  input,
  platform: 'node',
  external: [/^node:/, /^@ckpt\/schemas(\/|$)/, 'tinyglobby'],
  logLevel: 'warn',
});
await bundle.write({
  file: join(dist, 'validate.bundle.js'),
  format: 'esm',
  codeSplitting: false,
  minify: true,
});
await bundle.close();
const size = statSync(join(dist, 'validate.bundle.js')).size;
process.stderr.write(
  `bundled the validate fast path: dist/validate.bundle.js (${Math.round(size / 1024)} KB)\n`,
);
