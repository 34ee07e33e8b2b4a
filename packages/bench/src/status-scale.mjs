#!/usr/bin/env node
// `ckpt status` at scale (issue 13, point 5), every figure a ratio measured in this run:
//  - team: 1 run, 10,000 tasks, ~100,000 event files: `ckpt status` cold (a fresh process) against the floor
//    (`node src/floor.mjs`: read + JSON.parse of every file), interleaved, medians; then, in one process, a project
//    index loaded cold and refreshed after one event file changed (src/status-index-probe.mjs), as a share of
//    that cold load; and after a new event file was added and removed again (the viewer's new-event case).
//  - ulpi: one run document of 1 to 50 MB: `ckpt status` time and peak RSS per size (linear = flat per MB).
// Usage: node src/status-scale.mjs [--reps N] [--sizes 1,5,10,25,50] [--skip-team] [--skip-ulpi]
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { machine } from './report.mjs';
import { median, timeCommand } from './time.mjs';
import { ensure, generateTeamRun, generateUlpiRun } from './view-corpus.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const reps = Number(opt('--reps', '5'));
const sizes = opt('--sizes', '1,5,10,25,50').split(',').map(Number);
const here = import.meta.dirname;
const corpus = join(here, '..', 'corpus');
const ckpt = join(here, '..', '..', '..', 'apps', 'cli', 'bin', 'ckpt.js');
const log = (m) => process.stderr.write(`${m}\n`);
const fmt = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`);
const env = { NO_COLOR: '1' };

/** Interleaved repetitions (the order rotates) after one untimed warm-up of each suite. */
function interleave(suites) {
  for (const s of suites) timeCommand(s, join(here, '..'));
  const got = Object.fromEntries(suites.map((s) => [s.name, []]));
  for (let r = 0; r < reps; r++)
    for (let k = 0; k < suites.length; k++) {
      const s = suites[(k + r) % suites.length];
      const t = timeCommand(s, join(here, '..'));
      if (t.code !== 0 && !s.anyExit) throw new Error(`${s.name} exited ${t.code}: ${t.stderrTail}`);
      got[s.name].push(t);
    }
  return Object.fromEntries(
    Object.entries(got).map(([k, ts]) => [
      k,
      {
        wall: median(ts.map((t) => t.wall)),
        min: Math.min(...ts.map((t) => t.wall)),
        max: Math.max(...ts.map((t) => t.wall)),
        cpu: median(ts.map((t) => t.cpu)),
        rss: median(ts.map((t) => t.rss)),
      },
    ]),
  );
}

const m = machine();
const out = [];
out.push(`Command: \`node packages/bench/src/status-scale.mjs ${args.join(' ')}\`.`.replace(' `.', '`.'));
out.push(
  `Machine: ${m.cpu}; \`nproc\` = ${m.nproc}; Node ${m.node}; load average at start ${m.load}; ${m.date}. ` +
    `Medians of ${reps} interleaved repetitions after one untimed warm-up (warm page cache).`,
);

if (!args.includes('--skip-team')) {
  const tasks = 10000;
  const attempts = 5;
  const name = `team: 1 run, ${tasks} tasks, ${tasks * attempts * 2} event files`;
  // Its own copy: the viewer benchmark regenerates view-team-* and adds files to it while it runs.
  const dir = join(corpus, `status-team-${tasks}x${attempts}`);
  const meta = ensure(dir, name, () => generateTeamRun(dir, tasks, attempts));
  log(`${name}: corpus ${meta.reused ? 'reused' : 'written'}`);
  const t = interleave([
    { name: 'node -e 0', argv: ['node', '-e', '0'] },
    { name: 'floor', argv: ['node', 'src/floor.mjs', dir] },
    { name: 'ckpt status', argv: ['node', ckpt, 'status', dir], env, anyExit: true },
  ]);
  const events = join(dir, '.team', 'runs', meta.runId, 'events');
  const file = join(events, readdirSync(events).sort()[4321]);
  const probes = [];
  for (let r = 0; r < Math.max(1, Math.min(reps, 3)); r++) {
    const p = spawnSync('node', [join(here, 'status-index-probe.mjs'), dir, file], { encoding: 'utf8' });
    if (p.status !== 0) throw new Error(`probe failed: ${p.stderr}`);
    probes.push(JSON.parse(p.stdout));
  }
  const pm = (k) => median(probes.map((p) => p[k]));
  const floor = t.floor.wall;
  const status = t['ckpt status'].wall;
  const cold = pm('cold');
  const one = pm('refreshOne');
  out.push('', `### ${name}`, '');
  out.push('| suite | wall (median) | min – max | × floor | CPU (median) | CPU × floor | max RSS |');
  out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [k, v] of Object.entries(t))
    out.push(
      `| ${k} | ${fmt(v.wall)} | ${fmt(v.min)} – ${fmt(v.max)} | ${(v.wall / floor).toFixed(2)}× | ${fmt(v.cpu)} | ${(v.cpu / t.floor.cpu).toFixed(2)}× | ${v.rss.toFixed(0)} MB |`,
    );
  out.push(
    '',
    `In one process (\`src/status-index-probe.mjs\`, medians of ${probes.length}): index cold load ${fmt(cold)} ` +
      `(${pm('coldReads')} documents read); one event file changed, \`refresh([file])\` ${fmt(one)} ` +
      `(${pm('refreshOneReads') ?? probes[0].refreshOneReads[0]} document read) = **${((one / cold) * 100).toFixed(1)}% of the cold load**; ` +
      `\`refresh()\` by signature ${fmt(pm('refreshBySignature'))} (${pm('refreshBySignatureReads')} read); ` +
      `\`refresh([])\` (nothing changed) ${fmt(pm('refreshNothing'))}; a new event file added, \`refresh([file])\` ` +
      `${fmt(pm('refreshAdd'))} (${pm('addedUnits')} unit more), and removed again ${fmt(pm('refreshRemove'))}; ` +
      `RSS after ${pm('rssMB')} MB.`,
    '',
    `- \`ckpt status\` cold = **${(status / floor).toFixed(2)}× the floor** (target ≤ 1.20×): ${status / floor <= 1.2 ? 'met' : 'NOT met'}.`,
    `- re-load after one file changed = **${((one / cold) * 100).toFixed(1)}%** of the cold load (target ≤ 5%): ${one / cold <= 0.05 ? 'met' : 'NOT met'}.`,
    `- re-load after one event file was added (the viewer's core side of a new event) = ${fmt(pm('refreshAdd'))} ` +
      `= ${((pm('refreshAdd') / cold) * 100).toFixed(1)}% of the cold load (the viewer's target: visible < 1 s).`,
  );
}

if (!args.includes('--skip-ulpi')) {
  const rows = [];
  for (const mb of sizes) {
    const units = Math.max(100, Math.round(mb * 4000));
    const dir = join(corpus, `status-ulpi-${units}`);
    const meta = ensure(dir, `ulpi-status-${units}`, () => generateUlpiRun(dir, units));
    const file = join(dir, '.ulpi', 'runs', `${meta.runId}.json`);
    const bytes = statSync(file).size;
    log(`ulpi ${units} units: ${(bytes / 1048576).toFixed(1)} MB`);
    const t = interleave([
      { name: 'node -e 0', argv: ['node', '-e', '0'] },
      { name: 'floor', argv: ['node', 'src/floor.mjs', dir] },
      { name: 'ckpt status', argv: ['node', ckpt, 'status', dir], env, anyExit: true },
    ]);
    rows.push({ units, mb: bytes / 1048576, t });
  }
  const base = rows[0];
  const per = (r) => (r.t['ckpt status'].wall - r.t['node -e 0'].wall) / r.mb;
  out.push('', '### ulpi: one run document, 1 to 50 MB', '');
  out.push(
    '| units | document | `ckpt status` | floor | status − `node -e 0`, per MB | status RSS | RSS per MB | × time of the first row | × size of the first row |',
  );
  out.push('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    const s = r.t['ckpt status'];
    out.push(
      `| ${r.units} | ${r.mb.toFixed(1)} MB | ${fmt(s.wall)} | ${fmt(r.t.floor.wall)} | ${per(r).toFixed(0)} ms | ${s.rss.toFixed(0)} MB | ${(s.rss / r.mb).toFixed(1)} MB | ${(s.wall / base.t['ckpt status'].wall).toFixed(1)}× | ${(r.mb / base.mb).toFixed(1)}× |`,
    );
  }
  const last = rows.at(-1);
  out.push(
    '',
    `- Linear time: per-MB cost (status minus process start) ${per(base).toFixed(0)} ms at ${base.mb.toFixed(1)} MB, ${per(last).toFixed(0)} ms at ${last.mb.toFixed(1)} MB (ratio ${(per(last) / per(base)).toFixed(2)}; 1.0 = linear).`,
    `- Memory: ${(last.t['ckpt status'].rss - rows[0].t['ckpt status'].rss).toFixed(0)} MB more peak RSS for ${(last.mb - base.mb).toFixed(1)} MB more document (${((last.t['ckpt status'].rss - base.t['ckpt status'].rss) / (last.mb - base.mb)).toFixed(1)} MB of RSS per MB).`,
  );
}

process.stdout.write(`${out.join('\n')}\n`);
