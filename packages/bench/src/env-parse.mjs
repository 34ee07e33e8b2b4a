#!/usr/bin/env node
// The env parser (state.env, checklist.state.env) against JSON.parse on texts of the same size: 1, 17 and 100 MB
// by default, in several shapes (many lines, one huge quoted value, one line of many assignments, keys set again
// and again). Both are timed in this process (median of --reps), so the ratio parseEnv / JSON.parse is what
// counts: it stays about flat from 1 to 100 MB when the parser is linear (a quadratic one grows ~100x from 1 to
// 100 MB). Prints time, ratio and heap growth per shape and size; exits 1 when a ratio exceeds --max-ratio.
//
//   node src/env-parse.mjs                      # 1, 17, 100 MB
//   node src/env-parse.mjs --sizes 1,17 --reps 3
import { parseArgs } from 'node:util';
import { parseEnv } from '@ckpt/core';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1,17,100' },
    reps: { type: 'string', default: '3' },
    shapes: { type: 'string', default: 'lines,quoted,assignments,repeated' },
    'max-ratio': { type: 'string', default: '40' },
  },
});
const MB = 1e6;
const reps = Number(values.reps);
const maxRatio = Number(values['max-ratio']);

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

let failed = false;
console.log('shape        size     env ms   JSON.parse ms   ratio   heap after env');
for (const name of values.shapes.split(',')) {
  for (const size of values.sizes.split(',').map(Number)) {
    let { env, json } = shapes[name](size * MB);
    const envMs = time(() => parseEnv(env, 'state.env'));
    const heap = process.memoryUsage().heapUsed;
    const jsonMs = time(() => JSON.parse(json));
    const ratio = envMs / jsonMs;
    if (ratio > maxRatio) failed = true;
    console.log(
      `${name.padEnd(12)} ${`${size} MB`.padStart(6)} ${envMs.toFixed(0).padStart(9)} ${jsonMs.toFixed(0).padStart(15)} ${ratio.toFixed(1).padStart(7)}   ${(heap / MB).toFixed(0)} MB`,
    );
    env = json = undefined;
    globalThis.gc?.();
  }
}
if (failed) {
  console.error(`a ratio is above --max-ratio ${maxRatio}`);
  process.exit(1);
}
