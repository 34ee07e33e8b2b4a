#!/usr/bin/env node
// The viewer's issue 13 targets on the team run of 10,000 tasks / ~100,000 event files (the view-scale corpus):
// `ckpt view` prints its address, its first index is ready, the run page's first unit row after that, the first
// response's size, a new event file seen in the open page, the server's RSS against `ckpt status`'s, and frame times
// while scrolling the whole unit list. With --watchers, also what each file watcher costs to start on that tree.
// Prints a Markdown section for BENCHMARKS.md.
//
//   node packages/bench/src/view-live.mjs
//   node packages/bench/src/view-live.mjs --tasks 2000                  # smaller, for a quick look
//   node packages/bench/src/view-live.mjs --watchers --chokidar <dir>   # + chokidar, from a folder holding it
//   node packages/bench/src/view-live.mjs --cli <dir>/bin/ckpt.js        # another build (A/B), status and view both
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensure, generateTeamRun } from './view-corpus.mjs';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '10000' },
    watchers: { type: 'boolean', default: false },
    chokidar: { type: 'string' },
    cli: { type: 'string' },
  },
});
const tasks = Number(values.tasks);
const repo = resolve(import.meta.dirname, '../../..');
const cli = resolve(values.cli ?? join(repo, 'apps/cli/bin/ckpt.js'));
const dir = join(import.meta.dirname, '..', 'corpus', `view-team-${tasks}x5`);
const viewerRequire = createRequire(join(repo, 'apps/viewer/package.json'));
const { chromium } = viewerRequire('playwright-core');
const log = (m) => process.stderr.write(`${m}\n`);

const meta = ensure(dir, `team-${tasks}x5`, () => generateTeamRun(dir, tasks, 5));
const runDir = join(dir, '.team', 'runs', meta.runId);
const LIVE = '20261130T000000000000Z-task_started-build-t00001-a6-bench1.json';
rmSync(join(runDir, 'events', LIVE), { force: true });

/** Wall time and peak RSS of `ckpt status` (GNU time; status exits 1 when a run needs attention). */
function statusRun() {
  const res = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, cli, 'status', dir], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const [s, kb] = res.stderr.trim().split('\n').at(-1).split(' ');
  return { ms: Number(s) * 1000, rssMB: Number(kb) / 1024 };
}
const status = statusRun();
log(`status: ${JSON.stringify(status)}`);

const proc = (pid) => {
  const t = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(t)?.[1] ?? Number.NaN) / 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
};

const t0 = performance.now();
const child = spawn(process.execPath, [cli, 'view', dir, '--port', '0'], {
  stdio: ['ignore', 'pipe', 'ignore'],
});
const url = await new Promise((ok, fail) => {
  child.stdout.once('data', (b) => ok(b.toString().trim()));
  child.once('error', fail);
});
const addressMs = performance.now() - t0;
const r = {};
let browser;
try {
  let progress;
  for (;;) {
    progress = await (await fetch(`${url}api/progress`)).json();
    if (progress.state !== 'loading') break;
    await new Promise((w) => setTimeout(w, 50));
  }
  r.readyMs = performance.now() - t0;
  r.watcher = progress.watcher;
  r.afterReady = proc(child.pid);

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // When the first unit row enters the document, and the first frame after it (when it is painted), by the page's
  // own clock (from navigation start). waitForSelector alone notices it later: it polls while the page goes on
  // with its work (the rest of the units, the graph, the timeline), 300-700 ms later on this machine.
  await page.addInitScript(() => {
    const seen = new MutationObserver(() => {
      if (!document.querySelector('.unit-row')) return;
      seen.disconnect();
      const w = /** @type {any} */ (window);
      w.__firstRowInDom = performance.now();
      requestAnimationFrame(() => {
        w.__firstRowFrame = performance.now();
      });
    });
    seen.observe(document, { subtree: true, childList: true });
  });
  const path = `runs/team/${encodeURIComponent(meta.runId)}`;
  await page.goto(`${url}${path}`);
  await page.waitForSelector('body[data-rendered] .unit-row', { timeout: 300_000 });
  await page.waitForFunction(() => /** @type {any} */ (window).__firstRowFrame !== undefined);
  Object.assign(
    r,
    await page.evaluate(() => {
      const w = /** @type {any} */ (window);
      return {
        firstRowMs: w.__firstRowFrame,
        firstRowInDomMs: w.__firstRowInDom,
        noticedMs: performance.now(),
      };
    }),
  );
  const api = `${url}api/runs/team/${encodeURIComponent(meta.runId)}/page`;
  r.afterFirstRow = proc(child.pid);
  r.firstBytes = (
    await (await fetch(api, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer()
  ).byteLength;
  r.firstBytesGzip = Number(
    execFileSync('sh', ['-c', `curl -s -H 'accept-encoding: gzip' '${api}' | wc -c`], { encoding: 'utf8' }),
  );
  await page.waitForSelector('body[data-units="complete"]', { timeout: 300_000 });
  r.afterUnits = proc(child.pid);
  r.frames = await page.evaluate(async () => {
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
  await page.evaluate(() => {
    document.querySelector('.vlist').scrollTop = 0;
  });
  await page.waitForSelector('.unit-row[title="build-t00001"]');
  r.afterScroll = proc(child.pid);

  // A new event file: a sixth attempt of task build-t00001, until its row says so in the open page.
  const fifth = readdirSync(join(runDir, 'events')).find((f) => f.includes('task_started-build-t00001-a5'));
  const event = JSON.parse(readFileSync(join(runDir, 'events', fifth), 'utf8'));
  const t1 = performance.now();
  writeFileSync(
    join(runDir, 'events', LIVE),
    `${JSON.stringify({ ...event, at: '2026-11-30T00:00:00Z', attempt: 6, retry_of: 5 }, null, 2)}\n`,
  );
  await page.waitForFunction(
    () => document.querySelector('.unit-row[title="build-t00001"] .tries')?.textContent === '6 tries',
    undefined,
    { timeout: 300_000, polling: 'raf' },
  );
  r.newEventMs = performance.now() - t1;
  r.progressAfter = await (await fetch(`${url}api/progress`)).json();
  r.end = proc(child.pid);
} finally {
  await browser?.close();
  child.kill('SIGTERM');
  rmSync(join(runDir, 'events', LIVE), { force: true });
}
log(`view: ${JSON.stringify({ addressMs, ...r })}`);

/** Time to ready and RSS of each watcher on the corpus, each in a fresh process. */
function watchers() {
  const script = (kind) => `
    const t0 = performance.now();
    const dir = ${JSON.stringify(dir)};
    const done = () => { const ms = performance.now() - t0; setTimeout(() => {
      console.log(JSON.stringify({ ms, rss: process.memoryUsage().rss / 1048576 })); process.exit(0); }, 300); };
    ${
      kind === 'parcel'
        ? `import(${JSON.stringify(viewerRequire.resolve('@parcel/watcher'))}).then((m) => m.default.subscribe(dir, () => {})).then(done);`
        : kind === 'chokidar'
          ? `const c = require(${JSON.stringify(join(values.chokidar ?? '', 'node_modules', 'chokidar'))});
             c.watch(dir, { ignoreInitial: true }).on('ready', done);`
          : `require('node:fs').watch(dir, { recursive: true }, () => {}); done();`
    }`;
  const out = {};
  for (const kind of ['parcel', 'fs.watch recursive', ...(values.chokidar ? ['chokidar'] : [])]) {
    const res = execFileSync(process.execPath, ['-e', script(kind)], { encoding: 'utf8' });
    out[kind] = JSON.parse(res.trim().split('\n').at(-1));
    log(`watcher ${kind}: ${JSON.stringify(out[kind])}`);
  }
  return out;
}
const w = values.watchers ? watchers() : undefined;

const ms = (x) => `${Math.round(x)} ms`;
const ok = (b) => (b ? 'met' : '**not met**');
const rss = Math.max(r.end.hwm, r.afterReady.hwm);
const lines = [
  `### Viewer on the 10k-task run (issue 13) — \`node packages/bench/src/view-live.mjs${values.watchers ? ' --watchers' : ''}\``,
  '',
  `${new Date().toISOString().slice(0, 16)} UTC, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load average ${loadavg()[0].toFixed(1)} (other engineers building and testing), Node ${process.version}, Chromium headless; ${meta.events} event files; one run of each step.`,
  '',
  '| target | measured | |',
  '|---|---|---|',
  `| address printed < 1 s after start | ${ms(addressMs)} | ${ok(addressMs < 1000)} |`,
  `| (first index ready, after start) | ${ms(r.readyMs)} (watcher: ${r.watcher}) | |`,
  `| run page first unit row < 1 s after the index is ready | ${ms(r.firstRowMs)} from navigation to the first frame with a unit row (in the document at ${ms(r.firstRowInDomMs)}; playwright noticed it at ${ms(r.noticedMs)}) | ${ok(r.firstRowMs < 1000)} |`,
  `| first response < 500 KB | ${(r.firstBytes / 1024).toFixed(0)} KB (${(r.firstBytesGzip / 1024).toFixed(0)} KB gzip) | ${ok(r.firstBytes < 500 * 1024)} |`,
  `| a new event file visible in the open page < 1 s | ${ms(r.newEventMs)} (that reload: ${ms(r.progressAfter.lastLoadMs)}) | ${ok(r.newEventMs < 1000)} |`,
  `| server RSS ≤ 2× \`ckpt status\`'s | peak ${rss.toFixed(0)} MB, ${r.end.rss.toFixed(0)} MB at the end; status peak ${status.rssMB.toFixed(0)} MB (${(rss / status.rssMB).toFixed(2)}×), status took ${ms(status.ms)} | ${ok(rss <= 2 * status.rssMB)} |`,
  `| scrolling the whole list, no frame over 33 ms | p50 ${r.frames.p50.toFixed(1)} / p95 ${r.frames.p95.toFixed(1)} / max ${r.frames.max.toFixed(1)} ms, ${r.frames.over33} of ${r.frames.n} over 33 ms | ${ok(r.frames.over33 === 0)} |`,
  ...(w
    ? [
        '',
        '| watcher on the corpus tree (fresh process) | ready after | RSS |',
        '|---|---|---|',
        ...Object.entries(w).map(([k, v]) => `| ${k} | ${ms(v.ms)} | ${v.rss.toFixed(0)} MB |`),
      ]
    : []),
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
