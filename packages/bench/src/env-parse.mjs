#!/usr/bin/env node
// The env parser (state.env, checklist.state.env) against JSON.parse on texts of the same size: 1, 17 and 100 MB
// by default, in several shapes (many lines, one huge quoted value, one line of many assignments, keys set again
// and again). Both are timed in this process (median of --reps), so the ratio parseEnv / JSON.parse is what
// counts: it stays about flat (or falls: fixed costs weigh less) from 1 to 100 MB when the parser is linear; a
// quadratic one grows ~100x from 1 to 100 MB. Prints time, ratio and memory per shape and size; exits 1 when a
// shape's ratio at the largest size is more than --max-growth times its ratio at the smallest.
//
// Memory: the heap the parsed result keeps (with --expose-gc), env against JSON.parse of the same content.
//
//   node --expose-gc src/env-parse.mjs                      # 1, 17, 100 MB
//   node --expose-gc src/env-parse.mjs --sizes 1,17 --reps 3
import { parseArgs } from 'node:util';
import { parseEnv } from '@ckpt/core';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1,17,100' },
    reps: { type: 'string', default: '3' },
    shapes: { type: 'string', default: 'lines,quoted,assignments,repeated' },
    'max-growth': { type: 'string', default: '4' },
  },
});
const MB = 1e6;
const reps = Number(values.reps);
const maxGrowth = Number(values['max-growth']);

/** Lines from `line(i)` until `bytes` is reached, joined once. */
function fill(bytes, line) {
  const parts = [];
  let len = 0;
  for (let i = 0; len < bytes; i++) {
    const l = line(i);
    parts.push(l);
    len += l.length;
  }
  return parts;
}

/** An env text and a JSON text of about the same size and content. */
const shapes = {
  lines: (bytes) => {
    const parts = fill(bytes, (i) => `STEP_${i}="stage ${i % 7} done at 2026-11-29T07:13:00Z"\n`);
    const obj = Object.fromEntries(parts.map((l, i) => [`STEP_${i}`, l.slice(l.indexOf('"') + 1, -2)]));
    return { env: parts.join(''), json: JSON.stringify(obj, null, 1) };
  },
  quoted: (bytes) => {
    const v = 'x'.repeat(bytes);
    return { env: `BLOB="${v}"\n`, json: JSON.stringify({ BLOB: v }) };
  },
  assignments: (bytes) => {
    const parts = fill(bytes, (i) => `k${i}=v${i} `);
    const obj = Object.fromEntries(parts.map((_, i) => [`k${i}`, `v${i}`]));
    return { env: `${parts.join('')}\n`, json: JSON.stringify(obj) };
  },
  repeated: (bytes) => {
    const parts = fill(bytes, (i) => `KEY_${i % 50000}="value ${i}"\n`);
    return { env: parts.join(''), json: `[${parts.map((l) => JSON.stringify(l)).join(',\n')}]` };
  },
};

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn) {
  const ms = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

/** Heap the result of `fn` holds once garbage is collected (needs --expose-gc; else NaN). */
function retained(fn) {
  if (!globalThis.gc) return Number.NaN;
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = fn();
  gc();
  const after = process.memoryUsage().heapUsed;
  return kept === undefined ? 0 : after - before;
}

let failed = false;
console.log(
  'shape        size     env ms  JSON.parse ms  time ratio   env result  JSON result  memory ratio',
);
for (const name of values.shapes.split(',')) {
  const ratios = [];
  for (const size of values.sizes.split(',').map(Number)) {
    let { env, json } = shapes[name](size * MB);
    const envMs = time(() => parseEnv(env, 'state.env'));
    const jsonMs = time(() => JSON.parse(json));
    const envMem = retained(() => parseEnv(env, 'state.env'));
    const jsonMem = retained(() => JSON.parse(json));
    const ratio = envMs / jsonMs;
    ratios.push(ratio);
    const mb = (n) => `${(n / MB).toFixed(0)} MB`.padStart(11);
    console.log(
      `${name.padEnd(12)} ${`${size} MB`.padStart(6)} ${envMs.toFixed(0).padStart(9)} ${jsonMs.toFixed(0).padStart(14)} ${ratio.toFixed(1).padStart(11)}  ${mb(envMem)}  ${mb(jsonMem)}  ${(envMem / jsonMem).toFixed(1).padStart(12)}`,
    );
    env = json = undefined;
  }
  if (ratios.at(-1) / ratios[0] > maxGrowth) {
    failed = true;
    console.error(
      `${name}: the ratio grew ${(ratios.at(-1) / ratios[0]).toFixed(1)}x with size (not linear)`,
    );
  }
}
if (failed) process.exit(1);
