// Live change seen in real Chromium: a file replaced by rename and then edited in place, runs appearing and
// disappearing, eight tabs sharing one event stream; and the light page: compression, ETags, the first response.
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createViewer, type StartedViewer, startViewer } from '../src/index.js';
import { bigRun, CHROMIUM_ARGS, chromiumPath, copySample } from './helpers.js';
import { RELEASE, replaceByRename, ULPI_RUN, ulpiWithTitle } from './live-helpers.js';

let browser: Browser;
let viewer: StartedViewer;
let sample: ReturnType<typeof copySample>;
const problems: string[] = [];

beforeAll(async () => {
  sample = copySample();
  viewer = await startViewer({ dir: sample.dir, port: 0, debounceMs: 30 });
  browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  sample?.cleanup();
});

async function open(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.goto(new URL(path, viewer.url).href);
  await page.waitForSelector('body[data-rendered]');
  await page.waitForSelector('#live.on');
  return page;
}

const ULPI_PAGE = '/runs/ulpi/add-oauth-20261129T071300Z';

describe('an open page under live change', () => {
  it('should show a file replaced by rename and then edited in place, without a reload', async () => {
    const context = await browser.newContext();
    const page = await open(context, ULPI_PAGE);
    const file = join(sample.dir, ULPI_RUN);
    let navigations = 0;
    page.on('framenavigated', () => navigations++);
    for (const [how, title] of [
      ['rename', 'Renamed over by an atomic writer'],
      ['in place', 'Then edited in place'],
      ['rename', 'Renamed over again'],
      ['in place', 'And edited in place again'],
    ] as const) {
      const text = ulpiWithTitle(file, title);
      if (how === 'rename') replaceByRename(file, text);
      else writeFileSync(file, text);
      await page.waitForFunction((t) => document.querySelector('h1')?.textContent === t, title, {
        timeout: 20_000,
      });
    }
    expect(navigations).toBe(0);
    await context.close();
  });

  it('should re-fetch the timeline after a change only once it comes into view', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 300 } });
    const page = await open(context, ULPI_PAGE);
    await page.waitForSelector('#gantt:not([hidden]) canvas[data-lanes]');
    // Off screen (below the units, the graph and a margin of 400 px the page looks ahead).
    expect(await page.$eval('#gantt', (el) => el.getBoundingClientRect().top)).toBeGreaterThan(300 + 400);
    const timelines: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.endsWith('/timeline')) timelines.push(r.url());
    });
    const file = join(sample.dir, ULPI_RUN);
    writeFileSync(file, ulpiWithTitle(file, 'A change below the fold'));
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'A change below the fold');
    await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
    expect(timelines).toEqual([]);
    await page.$eval('#gantt', (el) => el.scrollIntoView());
    await expect.poll(() => timelines.length, { timeout: 20_000 }).toBe(1);
    await context.close();
  });

  it('should add a new run directory to the runs page and drop a deleted one', async () => {
    const context = await browser.newContext();
    const page = await open(context, '/');
    const key = 'resumable/live-new-20261130T020000Z';
    const dir = join(sample.dir, '.opencode/reports/live-new-20261130T020000Z');
    cpSync(join(sample.dir, RELEASE), dir, { recursive: true });
    await page.waitForSelector(`.run-row[data-key="${key}"]`, { timeout: 20_000 });
    rmSync(dir, { recursive: true });
    await page.waitForSelector(`.run-row[data-key="${key}"]`, { state: 'detached', timeout: 20_000 });
    await context.close();
  });

  it('should keep eight tabs live over one shared event stream, each loading like the first', async () => {
    const context = await browser.newContext();
    let streams = 0;
    context.on('request', (r) => {
      if (r.url().endsWith('/api/events')) streams++;
    });
    const pages: Page[] = [];
    for (let i = 0; i < 8; i++) pages.push(await open(context, i % 2 ? '/' : ULPI_PAGE));
    // One stream for the browser, not one per tab (six HTTP/1.1 connections per host would starve tab seven).
    expect(streams).toBe(1);
    const file = join(sample.dir, ULPI_RUN);
    const title = 'Seen by all eight tabs';
    replaceByRename(file, ulpiWithTitle(file, title));
    for (const [i, page] of pages.entries()) {
      if (i % 2)
        await page.waitForFunction(
          (t) => [...document.querySelectorAll('.run-title')].some((e) => e.textContent === t),
          title,
          { timeout: 20_000 },
        );
      else
        await page.waitForFunction((t) => document.querySelector('h1')?.textContent === t, title, {
          timeout: 20_000,
        });
    }
    // The tab holding the stream closes: another takes it over and the rest stay live.
    await pages[0]!.close();
    const next = 'After the first tab closed';
    replaceByRename(file, ulpiWithTitle(file, next));
    await pages[2]!.waitForFunction((t) => document.querySelector('h1')?.textContent === t, next, {
      timeout: 20_000,
    });
    expect(streams).toBe(2);
    await context.close();
  });

  it('should log no error on any page', () => {
    expect(problems).toEqual([]);
  });
});

describe('the light page', () => {
  it('should compress JSON and answer 304 to a matching If-None-Match', async () => {
    const url = new URL('/api/runs', viewer.url).href;
    const res = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(url, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    // The raw bytes really are gzip (fetch undoes it; inject does not).
    const v = await createViewer({ dir: sample.dir, watch: false });
    try {
      const raw = await v.app.inject({ url: '/api/summaries', headers: { 'accept-encoding': 'gzip' } });
      expect(raw.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(raw.rawPayload).toString()).runs.length).toBeGreaterThan(0);
    } finally {
      await v.close();
    }
  });

  it('should open a 10,000-unit run with a first response under 500 KB, then page in every unit', async () => {
    const big = bigRun(10_000, 5);
    const v = await startViewer({ dir: sample.dir, port: 0, watch: false, load: () => [big] });
    try {
      const page = await browser.newPage();
      const sizes = new Map<string, number>();
      page.on('response', async (r) => {
        if (r.url().includes('/api/runs/')) sizes.set(new URL(r.url()).pathname + new URL(r.url()).search, 0);
      });
      await page.goto(`${v.url}runs/ulpi/big-10000`);
      await page.waitForSelector('body[data-rendered] .unit-row');
      const first = await v.app.inject({ url: '/api/runs/ulpi/big-10000/page' });
      expect(first.body.length).toBeLessThan(500_000);
      const doc = first.json().run;
      expect(doc.unitsTotal).toBe(10_000);
      expect(doc.units.length).toBeLessThan(10_000);
      expect(doc.statusTones).toEqual({ failed: 'error', done: 'ok', running: 'active', pending: 'neutral' });
      await page.waitForSelector('body[data-units="complete"]', { timeout: 30_000 });
      // Every unit arrived through the paged endpoint.
      expect([...sizes.keys()].some((k) => k.includes('/units?offset='))).toBe(true);
      expect(await page.locator('#units-title .count').textContent()).toBe('10000');
      await page.close();
    } finally {
      await v.close();
    }
  });

  it('should page units, findings and files, and collapse a long resume plan with its counts', async () => {
    const skip = Array.from({ length: 300 }, (_, i) => ({ id: `unit-${i}`, reason: 'done' }));
    const findings = Array.from({ length: 250 }, (_, i) => ({
      code: 'test/finding',
      severity: 'warning' as const,
      message: `finding ${i}`,
      file: '.ulpi/runs/x.json',
      pointer: '',
      line: i + 1,
      column: 1,
    }));
    const big = bigRun(1000, 1, {
      findings,
      resume: { summary: 'skip 300', skip, runNext: [], blocked: [], needsPerson: [], notes: [] },
    });
    const v = await startViewer({ dir: sample.dir, port: 0, watch: false, load: () => [big] });
    try {
      const get = async (u: string) => (await v.app.inject({ url: `/api/runs/ulpi/big-1000${u}` })).json();
      const page = (await get('/page')).run;
      expect(page).toMatchObject({ unitsTotal: 1000, findingsTotal: 250, planTotals: { skip: 300 } });
      expect(page.resume.skip).toHaveLength(50);
      const units = await get('/units?offset=990&limit=50');
      expect(units).toMatchObject({ total: 1000, offset: 990 });
      expect(units.units.map((u: { id: string }) => u.id)).toEqual(big.units.slice(990).map((u) => u.id));
      expect((await get('/units?id=unit-00007&id=unit-00009')).units).toHaveLength(2);
      expect((await get('/findings?offset=200&limit=100')).findings).toHaveLength(50);

      const tab = await browser.newPage();
      await tab.goto(`${v.url}runs/ulpi/big-1000`);
      await tab.waitForSelector('body[data-rendered]');
      expect(await tab.locator('#resume details.group-skip summary').textContent()).toBe(
        'Skip 300 done (show)',
      );
      await tab.click('#resume details.group-skip summary');
      expect(await tab.locator('#resume .more-items').textContent()).toContain('250 more');
      await tab.click('#findings button.more');
      await tab.waitForFunction(() => document.querySelectorAll('#findings li.finding').length === 250);
      await tab.close();
    } finally {
      await v.close();
    }
  });
});
