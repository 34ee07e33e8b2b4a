#!/usr/bin/env node
// Viewer and status at scale (issue 7, point 5): a team run of 10,000 tasks / 100,000 events and a ulpi run of
// 10,000 units. Times `ckpt status` (list, --run, --json) in fresh processes, then serves `ckpt view` and opens
// the run page in headless Chromium: time to the first rendered unit rows, the rows in the DOM, and frame times
// while scrolling the whole list. Prints a Markdown section for BENCHMARKS.md.
//
//   node src/view-scale.mjs                 # 10,000 tasks x 5 attempts (100,000 events), 3 repetitions
//   node src/view-scale.mjs --tasks 2000    # smaller, for a quick look
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensure, generateTeamRun, generateUlpiRun } from './view-corpus.mjs';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '10000' },
    attempts: { type: 'string', default: '5' },
    reps: { type: 'string', default: '3' },
  },
});
const tasks = Number(values.tasks);
const attempts = Number(values.attempts);
const reps = Number(values.reps);
const repo = resolve(import.meta.dirname, '../../..');
const cli = join(repo, 'apps/cli/bin/ckpt.js');
const corpus = join(import.meta.dirname, '..', 'corpus');
// playwright-core is the viewer's test dependency; resolve it from there rather than adding it here.
const { chromium } = createRequire(join(repo, 'apps/viewer/package.json'))('playwright-core');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** Median wall time of a fresh `ckpt` process; NaN when it fails (e.g. a dialect whose loader is not there yet). */
function timeCli(args) {
  const ms = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    try {
      execFileSync(process.execPath, [cli, ...args], {
        stdio: ['ignore', 'ignore', 'ignore'],
        maxBuffer: 1 << 30,
      });
    } catch {
      return Number.NaN;
    }
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

function serve(dir) {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [cli, 'view', dir, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    child.stdout.once('data', (b) => ok({ url: b.toString().trim(), stop: () => child.kill('SIGTERM') }));
    child.once('error', fail);
  });
}

async function browse(url, runPath) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const out = {};
    // First open: the server loads the project (cold); then a fresh page (the server holds the loaded project).
    for (const label of ['cold', 'warm']) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${url}${runPath}`);
      await page.waitForSelector('body[data-rendered] .unit-row', { timeout: 120_000 });
      out[label] = await page.evaluate(() => performance.now());
      out.rows = await page.locator('.unit-row').count();
      out.bytes = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((e) => e.name.includes('/api/runs/'))
          .reduce((a, e) => a + e.encodedBodySize, 0),
      );
      if (label === 'warm') {
        // Scroll the whole list in 3 seconds of animation frames; record every frame's duration.
        out.frames = await page.evaluate(async () => {
          const el = document.querySelector('.vlist');
          const gaps = [];
          const start = performance.now();
          let last = start;
          await new Promise((done) => {
            const step = (now) => {
              gaps.push(now - last);
              last = now;
              const p = Math.min(1, (now - start) / 3000);
              el.scrollTop = p * (el.scrollHeight - el.clientHeight);
              if (p < 1) requestAnimationFrame(step);
              else done();
            };
            requestAnimationFrame(step);
          });
          gaps.shift();
          gaps.sort((a, b) => a - b);
          return {
            n: gaps.length,
            p50: gaps[Math.floor(gaps.length * 0.5)],
            p95: gaps[Math.floor(gaps.length * 0.95)],
            max: gaps.at(-1),
            over33: gaps.filter((g) => g > 33.4).length,
          };
        });
        out.lastRow = await page.locator('.unit-row').last().getAttribute('title');
      }
      await page.close();
    }
    return out;
  } finally {
    await browser.close();
  }
}

const cases = [
  {
    name: `team: 1 run, ${tasks} tasks, ${tasks * attempts * 2} event files`,
    dir: join(corpus, `view-team-${tasks}x${attempts}`),
    make: (dir) => generateTeamRun(dir, tasks, attempts),
  },
  {
    name: `ulpi: 1 run, ${tasks} units`,
    dir: join(corpus, `view-ulpi-${tasks}`),
    make: (dir) => generateUlpiRun(dir, tasks),
  },
];

const rows = [];
for (const c of cases) {
  const t0 = performance.now();
  const meta = ensure(c.dir, c.name, () => c.make(c.dir));
  process.stderr.write(
    `${c.name}: corpus ${meta.reused ? 'reused' : `written in ${Math.round(performance.now() - t0)} ms`}\n`,
  );
  const run = `${meta.dialect}/${meta.runId}`;
  const status = timeCli(['status', c.dir]);
  const detail = timeCli(['status', c.dir, '--run', run]);
  const asJson = timeCli(['status', c.dir, '--run', run, '--json']);
  if (Number.isNaN(detail)) {
    process.stderr.write(`${c.name}: the run is not loaded (no loader for ${meta.dialect} yet?); skipped\n`);
    continue;
  }
  const viewer = await serve(c.dir);
  let b;
  try {
    b = await browse(viewer.url, `runs/${meta.dialect}/${encodeURIComponent(meta.runId)}`);
  } finally {
    viewer.stop();
  }
  rows.push({ c, status, detail, asJson, b });
  process.stderr.write(`${c.name}: ${JSON.stringify({ status, detail, asJson, ...b })}\n`);
}

const ms = (x) => `${Math.round(x)} ms`;
const lines = [
  `## Viewer and status at scale (\`node packages/bench/src/view-scale.mjs\`)`,
  '',
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, Chromium headless; median of ${reps} fresh processes for the CLI; warm file cache.`,
  '',
  '| run | `ckpt status` | `status --run` | `status --run --json` | page, cold server | page, warm server | run JSON | rows in DOM | scroll frames p50 / p95 / max (> 33 ms) |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.c.name} | ${ms(r.status)} | ${ms(r.detail)} | ${ms(r.asJson)} | ${ms(r.b.cold)} | ${ms(r.b.warm)} | ${(r.b.bytes / 1e6).toFixed(1)} MB | ${r.b.rows} | ${r.b.frames.p50.toFixed(1)} / ${r.b.frames.p95.toFixed(1)} / ${r.b.frames.max.toFixed(1)} ms (${r.b.frames.over33} of ${r.b.frames.n}) |`,
  ),
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
