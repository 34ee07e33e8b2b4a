import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProject, type RunView } from '@ckpt/core';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedViewer, startViewer } from '../src/index.js';
import { bigRun, CHROMIUM_ARGS, chromiumPath, copySample, resultsDir } from './helpers.js';

// Real headless Chromium: a unit's history, the dependency graph with the resume plan on it, the timeline.
let browser: Browser;
let viewer: StartedViewer;
let sample: ReturnType<typeof copySample>;
const problems: string[] = [];
const TEAM = 'team/20261128T140312558021Z-a41c7f';
const SHAPE = 'shape-20261129T070000Z';
const LONG = 'long-20261129T070000Z';

const unit = (status: string, dependsOn: string[]) => ({
  status,
  dependsOn,
  note: '',
  createdAt: '2026-11-29T07:00:00Z',
  updatedAt: '2026-11-29T07:00:00Z',
});

beforeAll(async () => {
  mkdirSync(resultsDir, { recursive: true });
  sample = copySample();
  // A ulpi run with a dependency cycle and a dependency on a unit that does not exist.
  const doc = {
    schemaVersion: 2,
    id: SHAPE,
    task: 'a run with a cycle and an unknown dependency',
    status: 'running',
    createdAt: '2026-11-29T07:00:00Z',
    updatedAt: '2026-11-29T07:10:00Z',
    phases: {},
    units: {
      base: {
        ...unit('done', []),
        startedAt: '2026-11-29T07:01:00Z',
        finishedAt: '2026-11-29T07:05:00Z',
        updatedAt: '2026-11-29T07:05:00Z',
      },
      next: unit('pending', ['base']),
      'cyc-a': unit('pending', ['cyc-b']),
      'cyc-b': unit('pending', ['cyc-a']),
      after: unit('pending', ['cyc-a']),
      lost: unit('pending', ['ghost', 'base']),
    },
    openItems: [],
    resolvedItems: [],
    result: null,
  };
  writeFileSync(join(sample.dir, `.ulpi/runs/${SHAPE}.json`), `${JSON.stringify(doc, null, 2)}\n`);
  // A long chain: 590 units done, then 10 to do (one eligible, nine waiting on it).
  const chain: Record<string, unknown> = {};
  for (let i = 0; i < 600; i++) chain[`u${i}`] = unit(i < 590 ? 'done' : 'pending', i ? [`u${i - 1}`] : []);
  writeFileSync(
    join(sample.dir, `.ulpi/runs/${LONG}.json`),
    `${JSON.stringify({ ...doc, id: LONG, units: chain }, null, 2)}\n`,
  );
  viewer = await startViewer({ dir: sample.dir, port: 0, debounceMs: 60 });
  browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  sample?.cleanup();
});

async function open(url: string, width = 1280): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const origin = new URL(url).origin;
  page.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('data:'))
      problems.push(`outside request: ${r.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(url);
  await page.waitForSelector('body[data-rendered]');
  return page;
}

const entries = (page: Page, scope: string) =>
  page.$$eval(`${scope} .hist-entry`, (els) =>
    els.map((e) => [(e as HTMLElement).dataset.kind, e.querySelector('time')?.getAttribute('datetime')]),
  );
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(resultsDir, `${name}.png`), fullPage: true });

describe('unit history', () => {
  it('should show a team task attempt by attempt, filter by kind, and link to the raw line', async () => {
    const page = await open(`${viewer.url}runs/${TEAM}#unit-build-be-20261128T1404Z`);
    await page.waitForSelector('.unit-history .history[data-state="ready"]');
    expect(await entries(page, '.unit-history')).toEqual([
      ['started', '2026-11-28T14:05:31Z'],
      ['failed', '2026-11-28T14:22:09Z'],
      ['retried', '2026-11-28T14:45:37Z'],
    ]);
    await shot(page, 'history-team-task-1280');
    await page.click('.unit-history button.hist-kind[data-kind="failed"]');
    expect(await entries(page, '.unit-history')).toEqual([
      ['started', '2026-11-28T14:05:31Z'],
      ['retried', '2026-11-28T14:45:37Z'],
    ]);
    expect(
      await page.getAttribute('.unit-history button.hist-kind[data-kind="failed"]', 'aria-pressed'),
    ).toBe('false');
    await page.click('.unit-history .hist-entry[data-kind="retried"] a.hist-src');
    await page.waitForSelector('.raw-view .hit');
    expect(page.url()).toMatch(/task_started-build-be-20261128T1404Z-a2-831878\.json.*#L3$/);
    expect(await page.textContent('.raw-view .hit')).toContain('"at": "2026-11-28T14:45:37Z"');
    await page.close();
  });

  it('should show a ulpi unit from its event log, each entry at the log line of its transition', async () => {
    const page = await open(`${viewer.url}runs/ulpi/add-oauth-20261129T071300Z#unit-oauth-config`);
    await page.waitForSelector('.unit-history .history[data-state="ready"]');
    expect(await entries(page, '.unit-history')).toEqual([
      ['created', '2026-11-29T07:13:00Z'],
      ['started', '2026-11-29T07:20:11Z'],
      ['finished', '2026-11-29T07:31:40Z'],
    ]);
    const links = await page.$$eval('.unit-history a.hist-src', (as) => as.map((a) => a.textContent));
    expect(links).toEqual([
      'add-oauth-20261129T071300Z.events.jsonl:1',
      'add-oauth-20261129T071300Z.events.jsonl:9',
      'add-oauth-20261129T071300Z.events.jsonl:10',
    ]);
    await page.click('.unit-history .hist-entry[data-kind="finished"] a.hist-src');
    await page.waitForSelector('.raw-view .hit');
    expect(await page.textContent('.raw-view .hit')).toContain('"status":"done"');
    await page.close();
  });

  it('should show the run-level history with every unit, opened from the table of contents', async () => {
    const page = await open(`${viewer.url}runs/ulpi/add-oauth-20261129T071300Z#history`);
    await page.waitForSelector('#history .history[data-state="ready"]');
    const kinds = (await entries(page, '#history')).map((e) => e[0]);
    expect(kinds.slice(0, 2)).toEqual(['created', 'created']);
    expect(kinds).toContain('phase');
    const times = (await entries(page, '#history')).map((e) => e[1]).filter(Boolean) as string[];
    expect([...times].sort()).toEqual(times);
    await page.close();
  });
});

describe('dependency graph', () => {
  it("should draw a ulpi run's units coloured as its resume plan says, the cycle marked and the unknown dependency as a ghost", async () => {
    const run = loadProject(sample.dir).find((r) => r.id === SHAPE) as RunView;
    const page = await open(`${viewer.url}runs/ulpi/${SHAPE}`);
    await page.waitForSelector('#graph:not([hidden]) svg .gnode');
    const nodes = await page.$$eval('#graph .gnode', (els) =>
      els.map((e) => [
        (e as SVGElement).dataset.id,
        (e as SVGElement).dataset.plan,
        (e as SVGElement).dataset.kind,
      ]),
    );
    const planOf = (id: string) =>
      run.resume.skip.some((x) => x.id === id)
        ? 'skip'
        : run.resume.runNext.some((x) => x.id === id)
          ? 'run-next'
          : run.resume.blocked.some((x) => x.id === id)
            ? 'blocked'
            : 'none';
    expect(nodes.filter((n) => n[2] === 'unit').map((n) => [n[0], n[1]])).toEqual(
      run.units.map((u) => [u.id, planOf(u.id)]),
    );
    expect(nodes.filter((n) => n[2] === 'ghost').map((n) => n[0])).toEqual(['ghost']);
    const cycle = await page.$$eval('#graph .gedge.cycle', (els) =>
      els.map((e) => `${(e as SVGElement).dataset.from}>${(e as SVGElement).dataset.to}`).sort(),
    );
    expect(cycle).toEqual(['cyc-a>cyc-b', 'cyc-b>cyc-a']);
    expect(await page.$$eval('#graph .gedge.unknown', (els) => els.length)).toBe(1);
    // Colours: each plan its own stroke, the ghost dashed, cycle edges in the error colour.
    const style = await page.evaluate(() => {
      const stroke = (sel: string) => getComputedStyle(document.querySelector(sel)!).stroke;
      const root = getComputedStyle(document.querySelector('#graph')!);
      return {
        skip: stroke('.gnode[data-plan="skip"] rect'),
        next: stroke('.gnode[data-plan="run-next"] rect'),
        blocked: stroke('.gnode[data-plan="blocked"] rect'),
        cycle: stroke('.gedge.cycle'),
        plain: stroke('.gedge:not(.cycle)'),
        ghostDash: getComputedStyle(document.querySelector('.gnode.kind-ghost rect')!).strokeDasharray,
        error: root.getPropertyValue('--error').trim(),
      };
    });
    expect(new Set([style.skip, style.next, style.blocked]).size).toBe(3);
    expect(style.cycle).toBe(style.blocked);
    expect(style.cycle).not.toBe(style.plain);
    expect(style.ghostDash).not.toBe('none');
    // The blocked unit says what it waits for (the plan's dep_blocked root).
    const lost = await page.textContent('.gnode[data-id="lost"]');
    expect(lost).toContain('waits for ghost');
    await page.click('.gnode[data-id="next"]');
    await page.waitForFunction(() => location.hash === '#unit-next');
    await page.waitForSelector('.unit-detail:not([hidden]) h3');
    expect(await page.textContent('.unit-detail h3')).toContain('next');
    await shot(page, 'graph-cycle-unknown-1280');
    await page.close();
  });

  it('should draw only the resume frontier of a graph too large to read whole', async () => {
    const page = await open(`${viewer.url}runs/ulpi/${LONG}`);
    await page.waitForSelector('#graph:not([hidden]) svg .gnode');
    const ids = await page.$$eval('#graph .gnode', (els) => els.map((e) => (e as SVGElement).dataset.id));
    expect(ids.sort()).toEqual(['u589', ...Array.from({ length: 10 }, (_, i) => `u${590 + i}`)].sort());
    expect(await page.textContent('#graph .graph-tools')).toContain('600 nodes: showing 11');
    await page.close();
  });
});

describe('at 390 px', () => {
  it('should keep the graph, the timeline and the history inside the screen', async () => {
    const page = await open(`${viewer.url}runs/ulpi/add-oauth-20261129T071300Z#unit-e2e-tests`, 390);
    await page.waitForSelector('#graph:not([hidden]) svg .gnode');
    await page.waitForSelector('#gantt:not([hidden]) canvas[data-lanes]');
    await page.waitForSelector('.unit-history .history[data-state="ready"]');
    await page.click('a[href="#history"]');
    await page.waitForSelector('#history .history[data-state="ready"]');
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('#graph, #gantt, #history, .unit-history, .hist-entry')]
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .map((e) => e.id || e.className),
    );
    expect(wide).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'shape-390');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'shape-390-dark');
    for (const [sel, name] of [
      ['.unit-detail', 'unit-detail'],
      ['#graph', 'graph'],
      ['#gantt', 'gantt'],
    ])
      await page.locator(sel).screenshot({ path: join(resultsDir, `shape-390-dark-${name}.png`) });
    await page.close();
  });
});

describe('timeline', () => {
  it('should draw 10,000 units aggregated into lanes, and zooming in should narrow the aggregation to one unit per lane', async () => {
    const big = bigRun(10_000, 5);
    const v = await startViewer({ dir: sample.dir, port: 0, watch: false, load: () => [big] });
    try {
      const page = await open(`${v.url}runs/ulpi/big-10000`);
      await page.waitForSelector('#gantt:not([hidden]) canvas[data-lanes]');
      const state = () =>
        page.$eval('#gantt canvas', (c) => ({
          rows: Number((c as HTMLElement).dataset.rows),
          lanes: Number((c as HTMLElement).dataset.lanes),
          per: Number((c as HTMLElement).dataset.perLane),
        }));
      const first = await state();
      expect(first.rows).toBe(10_000);
      expect(first.per).toBeGreaterThan(1);
      expect(first.lanes * first.per).toBeGreaterThanOrEqual(10_000);
      // Something was painted: the canvas is not blank.
      const painted = await page.$eval('#gantt canvas', (c) => {
        const cv = c as HTMLCanvasElement;
        const d = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data;
        let n = 0;
        for (let i = 3; i < d.length; i += 4) if (d[i]! > 0) n++;
        return n;
      });
      expect(painted).toBeGreaterThan(1000);
      await page.$eval('#gantt', (el) => el.scrollIntoView());
      await page.locator('#gantt').screenshot({ path: join(resultsDir, 'gantt-10000-zoomed-out.png') });
      const seen = [first.per];
      for (let i = 0; i < 12 && seen.at(-1)! > 1; i++) {
        await page.click('#gantt button[aria-label="Zoom in"]');
        seen.push((await state()).per);
        if (i === 2)
          await page.locator('#gantt').screenshot({ path: join(resultsDir, 'gantt-10000-zoom-3.png') });
      }
      expect(seen.at(-1)).toBe(1);
      for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeLessThanOrEqual(seen[i - 1]!);
      expect(await page.textContent('#gantt .gantt-info')).not.toContain('aggregated');
      await page.locator('#gantt').screenshot({ path: join(resultsDir, 'gantt-10000-zoomed-in.png') });
      await page.click('#gantt button[aria-label="Show the whole run"]');
      expect((await state()).per).toBe(first.per);
      await page.close();
    } finally {
      await v.close();
    }
  });

  it('should draw resumable stages from their run.log history', async () => {
    const page = await open(`${viewer.url}runs/resumable/hotfix-login-throttle-20261129T071500Z`);
    await page.waitForSelector('#gantt:not([hidden]) canvas[data-lanes]');
    expect(await page.$eval('#gantt canvas', (c) => (c as HTMLElement).dataset.rows)).toBe('4');
    await page.close();
  });

  it('should make no request outside the server and log no error on any page', () => {
    expect(problems).toEqual([]);
  });
});
