#!/usr/bin/env node
// The ulpi resume set at scale: ulpiResumeSet on a long dependsOn chain and on a long tail into a cycle, at n and
// 4n units. A linear algorithm takes about 4x as long at 4n; the contract read literally (one root walk per
// dep_blocked unit) takes about 16x. Prints the times and the ratio; exits 1 when the ratio is above --max-ratio.
// A ratio, not a time, so a loaded machine does not fail it (each size is measured as the median of --reps runs).
//
//   node src/resume-scale.mjs                  # n = 15,000 and 60,000
//   node src/resume-scale.mjs --units 5000     # smaller
import { parseArgs } from 'node:util';
import { ulpiResumeSet } from '@ckpt/core';

const { values } = parseArgs({
  options: {
    units: { type: 'string', default: '15000' },
    reps: { type: 'string', default: '5' },
    'max-ratio': { type: 'string', default: '8' },
  },
});
const n = Number(values.units);
const reps = Number(values.reps);
const maxRatio = Number(values['max-ratio']);

function chain(size, cycle) {
  const units = {};
  for (let i = 0; i < size; i++)
    units[`u${i}`] = { status: 'pending', dependsOn: i > 0 ? [`u${i - 1}`] : [] };
  if (cycle) units.u0 = { status: 'pending', dependsOn: [`u${size - 1}`] };
  return { units };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(size) {
  const docs = [chain(size, false), chain(size, true)];
  ulpiResumeSet(docs[0]); // warm up the JIT on this shape
  const ms = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    for (const doc of docs) ulpiResumeSet(doc);
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

const small = time(n);
const large = time(4 * n);
const ratio = large / small;
console.log(`| units | chain + cycle, median of ${reps} |`);
console.log('|---|---|');
console.log(`| ${n} | ${small.toFixed(1)} ms |`);
console.log(`| ${4 * n} | ${large.toFixed(1)} ms |`);
console.log(`\nratio ${ratio.toFixed(2)} for 4x the units (linear ≈ 4, quadratic ≈ 16; limit ${maxRatio})`);
process.exitCode = ratio > maxRatio ? 1 : 0;
