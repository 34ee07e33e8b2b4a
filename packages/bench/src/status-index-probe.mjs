#!/usr/bin/env node
// One process: a project index loaded cold, then one event file changed and the index refreshed, told the path
// (as the viewer's watcher does) and by signature (stat of every file). Prints one JSON line of times in ms and the
// documents each step read. Usage: node src/status-index-probe.mjs <project dir> <file to change> [threads]
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createProjectIndex } from '@ckpt/core';

const [dir, file, threads] = process.argv.slice(2);
const pool = threads ? { threads: Number(threads) } : {};
const original = readFileSync(file);
const ms = (t0) => Math.round((performance.now() - t0) * 10) / 10;
try {
  let t0 = performance.now();
  const index = createProjectIndex(dir, { pool });
  const first = index.load();
  const cold = ms(t0);
  const told = [];
  const toldReads = [];
  for (let i = 0; i < 3; i++) {
    appendFileSync(file, ' ');
    t0 = performance.now();
    const u = index.refresh([file]);
    told.push(ms(t0));
    toldReads.push(u.stats.documentsRead);
  }
  appendFileSync(file, ' ');
  t0 = performance.now();
  const bySig = index.refresh();
  const signature = ms(t0);
  t0 = performance.now();
  index.refresh([]);
  const nothing = ms(t0);
  const sorted = [...told].sort((a, b) => a - b);
  process.stdout.write(
    `${JSON.stringify({
      runs: first.runs.length,
      coldReads: first.stats.documentsRead,
      cold,
      refreshOne: sorted[1],
      refreshOneAll: told,
      refreshOneReads: toldReads,
      refreshBySignature: signature,
      refreshBySignatureReads: bySig.stats.documentsRead,
      refreshNothing: nothing,
      rssMB: Math.round(process.memoryUsage().rss / 1048576),
    })}\n`,
  );
} finally {
  writeFileSync(file, original);
}
