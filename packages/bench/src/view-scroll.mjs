#!/usr/bin/env node
// Scrolling the run page of the 10,000-task team run (the view-scale corpus) in headless Chromium, under fixed
// conditions, so that a result does not depend on what else the machine runs:
//   idle      nothing added (the first pass starts right after the last page of units arrived: its GC too)
//   busy N    N busy-loop node processes started by this script for the pass (default 2: one per core here)
//   throttle  Chromium's own CPU throttling (CDP Emulation.setCPUThrottlingRate, default 4x)
// Each pass scrolls the whole unit list down in 3 s of animation frames and back up in 3 s, from the page's
// requestAnimationFrame (every frame moves the list by ~55 rows: a fling), and records every frame's duration; a
// second kind of pass ("wheel") moves ~5 rows a frame, so full rows scroll in. It counts the frames that showed full
// rows (not the block of ids the list shows while a scroll moves it past its margin in a frame), how often per pass
// the rows came back over the ids (the last column), and the main thread's CPU per pass (the same distance
// scrolled, whatever the frame rate). Frames are counted in passes that are not traced (a trace's recording
// costs the page CPU of its own); one more pass of each condition runs under a Chromium trace: the renderer main
// thread's CPU time per frame (thread time, so what the machine's other work does to the wall clock does not
// count) and where it goes, and its own frames over 33 ms (the count earlier versions of this script gave, from
// traced passes). Beside the frames over 33 ms, in brackets, those of them two frames long (one frame missed:
// 33.3 ms at 60 Hz, which the page's clock, rounded to 0.1 ms, reads as 33.4 ms, over 33.4 or not by a float's last
// bit). The last column tells the late frames the page's main thread made (they overlap a long animation frame:
// more than 50 ms of main-thread work, e.g. a GC, a sweep of Blink's heap, style and layout) from those where it
// waited for a core or for the compositor, and gives the longest with its main-thread work. --trace <file> also
// writes the trace of one throttled pass (of the "wheel" kind with --trace-wheel) and prints its longest tasks.
// Prints a Markdown section for BENCHMARKS.md.
//
//   node packages/bench/src/view-scroll.mjs
//   node packages/bench/src/view-scroll.mjs --tasks 2000 --passes 1   # smaller, for a quick look
//   node packages/bench/src/view-scroll.mjs --busy 2 --throttle 4 --trace /tmp/scroll-trace.json
//   node packages/bench/src/view-scroll.mjs --only first,throttle     # some of: first idle wheel busy throttle both
//     wheel-throttle wheel-both ("wheel" alone is idle; the throttled "wheel" passes run when named, or with no --only)
//   node packages/bench/src/view-scroll.mjs --static /tmp/old-static  # the page's client from another folder
//     (e.g. `git archive <rev> apps/viewer/static | tar -x -C /tmp/old`), to compare in the same conditions
//   node packages/bench/src/view-scroll.mjs --blink-heap   # instead of the frames: what Blink's own heap (Oilpan,
//     where style, layout and paint objects live) takes in a frame of a "wheel", idle and throttled, by object type:
//     a full GC, a memory-infra dump, 30 frames (--blink-heap-frames), a dump again, 3 rounds; rounds with a GC
//     between their dumps are flagged (what a GC freed is not counted)
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensure, generateTeamRun } from './view-corpus.mjs';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '10000' },
    passes: { type: 'string', default: '2' },
    busy: { type: 'string', default: '2' },
    throttle: { type: 'string', default: '4' },
    trace: { type: 'string' },
    'trace-wheel': { type: 'boolean', default: false },
    only: { type: 'string' },
    static: { type: 'string' },
    'blink-heap': { type: 'boolean', default: false },
    'blink-heap-frames': { type: 'string', default: '30' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  // The comment at the top of this file.
  const head = readFileSync(new URL(import.meta.url), 'utf8').split('\nimport ')[0];
  process.stdout.write(`${head.replace(/^#!.*\n/, '').replace(/^\/\/ ?/gm, '')}\n`);
  process.exit(0);
}
const tasks = Number(values.tasks);
const passes = Number(values.passes);
const busy = Number(values.busy);
const throttle = Number(values.throttle);
const repo = resolve(import.meta.dirname, '../../..');
const cli = join(repo, 'apps/cli/bin/ckpt.js');
const dir = join(import.meta.dirname, '..', 'corpus', `view-team-${tasks}x5`);
const { chromium } = createRequire(join(repo, 'apps/viewer/package.json'))('playwright-core');
const log = (m) => process.stderr.write(`${m}\n`);
const want = (c) => !values.only || values.only.split(',').includes(c);

const meta = ensure(dir, `team-${tasks}x5`, () => generateTeamRun(dir, tasks, 5));
const loadBefore = loadavg()[0];

/** Busy-loop processes, one per `n`, until the returned function stops them. */
function burn(n) {
  const kids = Array.from({ length: n }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  return () => {
    for (const k of kids) k.kill('SIGKILL');
  };
}

/** One pass in the page: down in 3 s, up in 3 s, over `span` of the list; every frame's duration. */
function scrollPass(page, span = 1) {
  return page.evaluate(async (span) => {
    const el = document.querySelector('.vlist');
    const sheet = document.querySelector('.vlist-brief');
    const gaps = [];
    // Each late frame (over 33 ms; not a half's first) as [gap, its end], and the page's long animation frames
    // (main-thread work of more than 50 ms, script or not: a GC, style, layout, paint), to tell a late frame the
    // page's main thread made from one where it waited for a core or for the compositor.
    const late = [];
    const loafs = [];
    const observer =
      typeof PerformanceObserver !== 'undefined' &&
      PerformanceObserver.supportedEntryTypes?.includes('long-animation-frame')
        ? new PerformanceObserver((list) => {
            for (const e of list.getEntries())
              loafs.push([e.startTime, e.duration, (e.scripts ?? []).reduce((a, x) => a + x.duration, 0)]);
          })
        : undefined;
    observer?.observe({ type: 'long-animation-frame' });
    // Frames that showed full rows (not the fast scroll's block of ids), drawn before each callback, and how often
    // the rows came back over the ids (a count of the list's work, less noisy than frame times).
    let rows = 0;
    let returns = 0;
    let named = false;
    for (const [from, to] of [
      [0, 1],
      [1, 0],
    ]) {
      const start = performance.now();
      let last = start;
      await new Promise((done) => {
        const step = (now) => {
          if (now - last > 33.4 && last !== start) late.push([now - last, now]);
          gaps.push(now - last);
          if (!sheet || sheet.hidden) {
            rows++;
            if (named) returns++;
            named = false;
          } else named = true;
          last = now;
          const p = Math.min(1, (now - start) / 3000);
          el.scrollTop = (from + (to - from) * p) * span * (el.scrollHeight - el.clientHeight);
          if (p < 1) requestAnimationFrame(step);
          else done();
        };
        requestAnimationFrame(step);
      });
      gaps.shift();
      rows--;
    }
    // The entries of the last frames arrive after them.
    await new Promise((w) => setTimeout(w, 100));
    observer?.disconnect();
    // Each late frame's longest long animation frame that overlaps it: [gap, main-thread ms, of it script ms].
    const lateWork = late.map(([gap, end]) => {
      let work = 0;
      let script = 0;
      for (const [t, d, sc] of loafs)
        if (t < end && t + d > end - gap && d > work) {
          work = d;
          script = sc;
        }
      return [gap, work, script];
    });
    return { gaps, rows, returns, late: lateWork };
  }, span);
}

/** The renderer main thread's events of a trace (complete events, with thread times). */
function mainThread(events) {
  const main = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  return events.filter((e) => e.ph === 'X' && main.has(`${e.pid}:${e.tid}`));
}

/** CPU ms per frame of the main thread's events by name (thread time; wall time where a trace has none). */
function cpuPerFrame(main, frames, ...names) {
  const us = main.filter((e) => names.includes(e.name)).reduce((a, e) => a + (e.tdur ?? e.dur), 0);
  return us / 1000 / frames;
}

const CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8'];

/**
 * Frames of several passes under one condition, then the main thread's CPU time per frame from one more pass,
 * traced. The frames are counted in passes that are not traced: recording a trace takes CPU of its own in the
 * page's main thread and the browser (under CDP throttling, 4x that in the main thread), and with busy loops a
 * traced pass draws fewer frames and has more late ones (2026-12-01: 578 frames drawn, 21 over 33 ms,
 * traced, vs 682 and 15 not; 4x throttling and 2 busy loops, 2 passes each, interleaved). The traced pass's late
 * frames are reported too (`over33Traced`).
 */
async function measure(page, browser, label, setup, span = 1) {
  const stop = await setup();
  try {
    const gaps = [];
    let rowFrames = 0;
    let returns = 0;
    const late = [];
    for (let i = 0; i < passes; i++) {
      const pass = await scrollPass(page, span);
      gaps.push(...pass.gaps);
      late.push(...pass.late);
      rowFrames += pass.rows;
      returns += pass.returns;
    }
    await browser.startTracing(page, { categories: CATEGORIES });
    const traced = await scrollPass(page, span);
    const trace = JSON.parse((await browser.stopTracing()).toString());
    const main = mainThread(trace.traceEvents ?? trace);
    const sorted = [...gaps].sort((a, b) => a - b);
    const n = gaps.length;
    // CPU per frame: the traced pass's.
    const nTraced = traced.gaps.length;
    const r = {
      label,
      n,
      p50: sorted[Math.floor(n * 0.5)],
      p95: sorted[Math.floor(n * 0.95)],
      max: sorted.at(-1),
      over33: gaps.filter((g) => g > 33.4).length,
      // Of those, the gaps of two frames (one frame missed: 33.3 ms at 60 Hz) that the page's clock, rounded to
      // 0.1 ms, reads as 33.4 ms and a little more (33.40000000000009): counted over 33.4 or not by a float's last bit.
      over33TwoFrames: gaps.filter((g) => g > 33.4 && g < 33.45).length,
      over33Traced: traced.gaps.filter((g) => g > 33.4).length,
      // Late frames that overlap a long animation frame (the page's main thread worked > 50 ms), and the longest
      // late frame as [its ms, the main thread's ms in it (0: no long animation frame), of that script ms].
      lateLong: late.filter(([, work]) => work > 0).length,
      lateN: late.length,
      worst: late.reduce((a, l) => (l[0] > a[0] ? l : a), [0, 0, 0]),
      nTraced,
      rows: Math.max(0, rowFrames),
      returns: returns / passes,
      cpuPass: cpuPerFrame(main, 1, 'ThreadControllerImpl::RunTask'),
      cpu: cpuPerFrame(main, nTraced, 'ThreadControllerImpl::RunTask'),
      script: cpuPerFrame(main, nTraced, 'FunctionCall'),
      styleLayout: cpuPerFrame(main, nTraced, 'UpdateLayoutTree', 'Layout'),
      paint: cpuPerFrame(main, nTraced, 'PrePaint', 'Paint', 'Layerize', 'Commit'),
      gc: cpuPerFrame(
        main,
        nTraced,
        'MinorGC',
        'MajorGC',
        'V8.GC_MC_BACKGROUND_MARKING',
        'BlinkGC.AtomicPhase',
      ),
      // The longest main-thread task in thread time (what the machine's other work does not lengthen).
      longest: Math.max(
        0,
        ...main
          .filter((e) => e.name === 'ThreadControllerImpl::RunTask')
          .map((e) => (e.tdur ?? e.dur) / 1000),
      ),
      load: loadavg()[0],
    };
    log(`${label}: ${JSON.stringify(r)}`);
    return r;
  } finally {
    await stop();
  }
}

/** The longest renderer tasks of a trace, each with the longest events inside it. */
function longTasks(events) {
  const on = mainThread(events);
  const tasks = on.filter((e) => e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask');
  tasks.sort((a, b) => b.dur - a.dur);
  return tasks.slice(0, 5).map((t) => {
    const inside = on
      .filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.dur > 1000)
      .sort((a, b) => b.dur - a.dur)
      .slice(0, 4)
      .map((e) => `${e.name} ${(e.dur / 1000).toFixed(1)}`);
    return `${(t.dur / 1000).toFixed(1)} ms: ${inside.join(', ')}`;
  });
}

/**
 * What Blink's heap (Oilpan: computed styles, layout objects and results, fragments, shape results, paint chunks)
 * takes in `frames` frames of a "wheel" (the list moved as a wheel pass moves it), by object type: a full GC, a
 * detailed memory-infra dump, the frames, another dump; 3 rounds. With no GC between two dumps (checked in the
 * trace), what the second holds more is what the frames allocated. Returns one entry per round: the renderer's
 * bytes by type added, and the GCs between.
 */
async function blinkHeap(page, cdp, browser, frames) {
  const session = await browser.newBrowserCDPSession();
  const events = [];
  session.on('Tracing.dataCollected', (m) => events.push(...m.value));
  await session.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: {
      includedCategories: ['disabled-by-default-memory-infra', 'v8'],
      memoryDumpConfig: { triggers: [] },
    },
  });
  const dump = () =>
    session.send('Tracing.requestMemoryDump', { deterministic: false, levelOfDetail: 'detailed' });
  const wheel = (n) =>
    page.evaluate(async (n) => {
      const el = document.querySelector('.vlist');
      const step = (0.1 * (el.scrollHeight - el.clientHeight)) / 180;
      // Down, or back up near the end (a round must not stop at the list's end).
      const dir = el.scrollTop + (n + 1) * step > el.scrollHeight - el.clientHeight ? -1 : 1;
      await new Promise((done) => {
        let k = 0;
        const frame = () => {
          el.scrollTop += dir * step;
          if (++k < n) requestAnimationFrame(frame);
          else requestAnimationFrame(() => requestAnimationFrame(done));
        };
        requestAnimationFrame(frame);
      });
    }, n);
  const rounds = [];
  const conditions = [['idle', 1], ...(throttle > 1 ? [[`CPU throttled ${throttle}× (CDP)`, throttle]] : [])];
  for (const [label, rate] of conditions) {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await wheel(60);
    for (let r = 0; r < 3; r++) {
      await cdp.send('HeapProfiler.collectGarbage');
      await cdp.send('HeapProfiler.collectGarbage');
      const before = (await dump()).success;
      await wheel(frames);
      rounds.push({ label, ok: before && (await dump()).success });
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  }
  // (The last dump reaches the trace a moment after its request returns.)
  await new Promise((w) => setTimeout(w, 1000));
  const ended = new Promise((ok) => session.once('Tracing.tracingComplete', ok));
  await session.send('Tracing.end');
  await ended;
  // The page's renderer: the process whose dumps hold Blink's heap by type.
  const dumps = events.filter((e) => e.ph === 'v' && e.args?.dumps?.allocators?.['blink_gc/main/heap']);
  const count = new Map();
  for (const e of dumps)
    count.set(e.pid, (count.get(e.pid) ?? 0) + Object.keys(e.args.dumps.allocators).length);
  const pid = [...count].sort((a, b) => b[1] - a[1])[0]?.[0];
  const hex = (x) => (x ? Number.parseInt(x.value, 16) : 0);
  // The renderer's dumps in the order they were asked for, two a round (the guids a request returns do not name
  // the trace's dumps).
  const mine = dumps.filter((d) => d.pid === pid).sort((a, b) => a.ts - b.ts);
  /** Bytes by object type over every space and page of the heap. */
  const byType = (e) => {
    const m = new Map();
    for (const [k, d] of Object.entries(e?.args.dumps.allocators ?? {})) {
      const t = /^blink_gc\/main\/heap\/[^/]+\/pages\/page_\d+\/types\/(.*?)(?: \(0x[0-9a-f]+\))?$/.exec(k);
      if (t) m.set(t[1], (m.get(t[1]) ?? 0) + hex(d.attrs?.allocated_objects_size ?? d.attrs?.size));
    }
    return { m, ts: e?.ts ?? 0 };
  };
  const gcs = events.filter(
    (e) => e.pid === pid && e.ph === 'X' && (e.name === 'MajorGC' || e.name === 'MinorGC'),
  );
  const found = mine.length === 2 * rounds.length && rounds.every((r) => r.ok);
  return rounds.map(({ label }, k) => {
    const a = byType(found ? mine[2 * k] : undefined);
    const b = byType(found ? mine[2 * k + 1] : undefined);
    const added = new Map();
    for (const [t, v] of b.m) added.set(t, v - (a.m.get(t) ?? 0));
    return { label, added, gcs: gcs.filter((e) => e.ts > a.ts && e.ts < b.ts).length, found };
  });
}

const server = spawn(process.execPath, [cli, 'view', dir, '--port', '0'], {
  stdio: ['ignore', 'pipe', 'ignore'],
});
const url = await new Promise((ok, fail) => {
  server.stdout.once('data', (b) => ok(b.toString().trim()));
  server.once('error', fail);
});
const rows = [];
let traced;
let heap;
let browser;
try {
  for (;;) {
    const progress = await (await fetch(`${url}api/progress`)).json();
    if (progress.state !== 'loading') break;
    await new Promise((w) => setTimeout(w, 100));
  }
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const cdp = await page.context().newCDPSession(page);
  if (values.static)
    await page.route('**/static/*', (route) => {
      const name = new URL(route.request().url()).pathname.split('/').pop() ?? '';
      let body;
      try {
        body = readFileSync(join(values.static, name));
      } catch {
        return route.continue();
      }
      const type = name.endsWith('.css')
        ? 'text/css'
        : name.endsWith('.svg')
          ? 'image/svg+xml'
          : 'text/javascript';
      return route.fulfill({ body, contentType: type });
    });
  await page.goto(`${url}runs/team/${encodeURIComponent(meta.runId)}`);
  await page.waitForSelector('body[data-units="complete"]', { timeout: 300_000 });
  if (values['blink-heap']) heap = await blinkHeap(page, cdp, browser, Number(values['blink-heap-frames']));
  else await conditions(page, cdp, browser);
} finally {
  await browser?.close();
  server.kill('SIGTERM');
}

/** The frames of each condition, in `rows`. */
async function conditions(page, cdp, browser) {
  const none = async () => async () => undefined;
  if (want('first'))
    rows.push(await measure(page, browser, 'idle, right after the last units arrived', none));
  if (want('idle')) rows.push(await measure(page, browser, 'idle', none));
  if (want('wheel')) rows.push(await measure(page, browser, 'idle, "wheel" (~5 rows a frame)', none, 0.1));
  if (busy > 0 && want('busy'))
    rows.push(
      await measure(page, browser, `${busy} busy-loop processes`, async () => {
        const stop = burn(busy);
        await new Promise((w) => setTimeout(w, 500));
        return async () => stop();
      }),
    );
  if (throttle > 1) {
    const rate = async (r) => cdp.send('Emulation.setCPUThrottlingRate', { rate: r });
    if (want('throttle'))
      rows.push(
        await measure(page, browser, `CPU throttled ${throttle}× (CDP)`, async () => {
          await rate(throttle);
          return () => rate(1);
        }),
      );
    if (busy > 0 && want('both'))
      rows.push(
        await measure(
          page,
          browser,
          `CPU throttled ${throttle}× and ${busy} busy-loop processes`,
          async () => {
            await rate(throttle);
            const stop = burn(busy);
            await new Promise((w) => setTimeout(w, 500));
            return async () => {
              stop();
              await rate(1);
            };
          },
        ),
      );
    if (want('wheel-throttle'))
      rows.push(
        await measure(
          page,
          browser,
          `"wheel", CPU throttled ${throttle}× (CDP)`,
          async () => {
            await rate(throttle);
            return () => rate(1);
          },
          0.1,
        ),
      );
    if (busy > 0 && want('wheel-both'))
      rows.push(
        await measure(
          page,
          browser,
          `"wheel", CPU throttled ${throttle}× and ${busy} busy-loop processes`,
          async () => {
            await rate(throttle);
            const stop = burn(busy);
            await new Promise((w) => setTimeout(w, 500));
            return async () => {
              stop();
              await rate(1);
            };
          },
          0.1,
        ),
      );
    if (values.trace) {
      await rate(throttle);
      await browser.startTracing(page, { categories: [...CATEGORIES, 'blink', 'cc'] });
      await scrollPass(page, values['trace-wheel'] ? 0.1 : 1);
      const buf = await browser.stopTracing();
      await rate(1);
      writeFileSync(values.trace, buf);
      const trace = JSON.parse(buf.toString());
      traced = longTasks(trace.traceEvents ?? trace);
      log(`trace: ${values.trace}\n  ${traced.join('\n  ')}`);
    }
  }
}

const f = (x) => x.toFixed(1);
const frames = Number(values['blink-heap-frames']);
/** Blink's heap taken a frame by type: each condition's rounds, the types that take most (median of the rounds). */
const heapLines = (heap ?? []).length
  ? [
      `### Blink's heap (Oilpan) taken in a frame of a "wheel" — \`node packages/bench/src/view-scroll.mjs --blink-heap${values.static ? ` --static ${values.static}` : ''}\``,
      '',
      `${new Date().toISOString().slice(0, 16)} UTC, load average ${loadBefore.toFixed(1)} before the run; each round: a full GC, a memory-infra dump, ${frames} frames of a "wheel" (~5 rows a frame), a dump; KB a frame.`,
      '',
      ...[...new Set(heap.map((r) => r.label))].flatMap((label) => {
        const rs = heap.filter((r) => r.label === label);
        const total = (r) => [...r.added.values()].reduce((a, v) => a + v, 0);
        const med = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
        const types = new Set(rs.flatMap((r) => [...r.added.keys()]));
        const top = [...types]
          .map((t) => [t, med(rs.map((r) => r.added.get(t) ?? 0))])
          .sort((a, b) => b[1] - a[1])
          .slice(0, 12);
        const kb = (v) => (v / 1024 / frames).toFixed(1);
        return [
          `| ${label}: type | ${rs.map((r, k) => `round ${k + 1}${r.found ? '' : ' (no dump)'}${r.gcs ? ` (${r.gcs} GC between)` : ''}`).join(' | ')} |`,
          `|---|${rs.map(() => '---|').join('')}`,
          `| all | ${rs.map((r) => kb(total(r))).join(' | ')} |`,
          ...top.map(
            ([t]) =>
              `| ${t.replaceAll('|', '\\|')} | ${rs.map((r) => kb(r.added.get(t) ?? 0)).join(' | ')} |`,
          ),
          '',
        ];
      }),
    ]
  : [];
const lines = [
  `### Scrolling the 10k-unit run page — \`node packages/bench/src/view-scroll.mjs${values.static ? ` --static ${values.static}` : ''}\``,
  '',
  `${new Date().toISOString().slice(0, 16)} UTC, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load average ${loadBefore.toFixed(1)} before the run, Node ${process.version}, Chromium headless 1280×900; team run of ${tasks} tasks (${meta.events} event files). Each condition: ${passes} pass(es) of the whole list down in 3 s and up in 3 s (~55 rows a frame; "wheel": a tenth of it), not traced, for the frames; then 1 traced pass for the CPU columns and its own frames over 33 ms.`,
  '',
  '| condition | frames | with full rows | p50 / p95 / max | over 33 ms (of them 2 frames, read as 33.4 ms) | traced pass: over 33 ms | main-thread CPU per frame: all (script / style+layout / paint+commit / GC) | CPU per pass | longest task (CPU) | load average after | returns from the ids per pass | late frames in a long animation frame; the longest late frame (main-thread work in it, of that script) |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.label} | ${r.n} | ${r.rows} | ${f(r.p50)} / ${f(r.p95)} / ${f(r.max)} ms | ${r.over33} (${r.over33TwoFrames}) | ${r.over33Traced} of ${r.nTraced} | ${f(r.cpu)} ms (${f(r.script)} / ${f(r.styleLayout)} / ${f(r.paint)} / ${f(r.gc)}) | ${r.cpuPass.toFixed(0)} ms | ${f(r.longest)} ms | ${r.load.toFixed(1)} | ${f(r.returns)} | ${r.lateLong} of ${r.lateN}${r.lateN ? `; ${f(r.worst[0])} ms (${r.worst[1] ? `${r.worst[1].toFixed(0)} ms, script ${r.worst[2].toFixed(0)}` : 'none over 50 ms'})` : ''} |`,
  ),
  ...(traced ? ['', `Longest renderer tasks of one throttled pass (trace): ${traced.join('; ')}.`] : []),
  '',
];
process.stdout.write(`${(heap ? heapLines : lines).join('\n')}\n`);
