#!/usr/bin/env node
// One process: a project index loaded cold, then one event file changed and the index refreshed, told the path
// (as the viewer's watcher does) and by signature (stat of every file), then a new event file added next to it and
// removed again (told the path). Prints one JSON line of times in ms and the documents each step read. Usage: node src/status-index-probe.mjs <project dir> <file to change> [threads]
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
  // A new task's first event, as a team agent writes it (the events folder's listing changes), then removed.
  const value = JSON.parse(original.toString('utf8'));
  const added = join(dirname(file), '29991231T235959000000Z-task_started-probe-new-a1-000000.json');
  const event = {
    ...value,
    event: 'task_started',
    task_id: 'probe-new',
    attempt: 1,
    at: '2999-12-31T23:59:59Z',
  };
  writeFileSync(added, `${JSON.stringify(event, null, 2)}\n`);
  let refreshAdd;
  let addedUnits;
  try {
    t0 = performance.now();
    const grown = index.refresh([added]);
    refreshAdd = ms(t0);
    addedUnits =
      grown.runs.reduce((n, r) => n + r.units.length, 0) - first.runs.reduce((n, r) => n + r.units.length, 0);
  } finally {
    rmSync(added, { force: true });
  }
  t0 = performance.now();
  index.refresh([added]);
  const refreshRemove = ms(t0);
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
      refreshAdd,
      addedUnits,
      refreshRemove,
      rssMB: Math.round(process.memoryUsage().rss / 1048576),
    })}\n`,
  );
} finally {
  writeFileSync(file, original);
}
