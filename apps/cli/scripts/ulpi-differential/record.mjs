#!/usr/bin/env node
// Records the original checkpoint.mjs's behaviour on every case of cases.mjs, one data file per case under
// test-fixtures/ulpi/differential/. The original is run from the path given (never vendored here):
//   node apps/cli/scripts/ulpi-differential/record.mjs <checkout>/checkpoint-resume/scripts/checkpoint.mjs
// Each file keeps the case, the original's exit code, stdout, stderr and resulting files, and (hand-written,
// carried over on re-recording) a `ckpt` block where ckpt answers differently on purpose, with the reason.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cases } from './cases.mjs';
import { readTree, serialize, writeTree } from './tree.mjs';

/** The instant both tools see as "now" for the stamps they write. */
export const FROZEN_NOW = '2031-02-03T04:05:06Z';

const original = process.argv[2];
if (!original || !existsSync(original)) {
  process.stderr.write('usage: record.mjs <path to the original checkpoint.mjs>\n');
  process.exit(1);
}
const outDir = resolve(import.meta.dirname, '../../../../test-fixtures/ulpi/differential');
mkdirSync(outDir, { recursive: true });
const freeze = pathToFileURL(join(import.meta.dirname, 'freeze-clock.mjs')).href;

const names = new Set();
for (const c of cases) {
  if (names.has(c.name)) throw new Error(`duplicate case ${c.name}`);
  names.add(c.name);
  const dir = mkdtempSync(join(tmpdir(), 'ulpi-diff-'));
  try {
    writeTree(dir, c.files, c.dirs);
    const r = spawnSync(process.execPath, ['--import', freeze, resolve(original), ...c.args], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, ULPI_FROZEN_NOW: FROZEN_NOW },
    });
    const out = join(outDir, `${c.name}.json`);
    const kept = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')).ckpt : undefined;
    const record = {
      description: c.description,
      args: c.args,
      ...(c.files ? { files: c.files } : {}),
      ...(c.dirs ? { dirs: c.dirs } : {}),
      now: FROZEN_NOW,
      original: { exitCode: r.status, stdout: r.stdout, stderr: r.stderr, files: readTree(dir) },
      ...(kept ? { ckpt: kept } : {}),
    };
    writeFileSync(out, serialize(record));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
for (const f of readdirSync(outDir))
  if (f.endsWith('.json') && !names.has(f.slice(0, -5))) unlinkSync(join(outDir, f));
process.stdout.write(`recorded ${cases.length} cases into ${outDir}\n`);
