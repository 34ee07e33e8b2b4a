import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProject, type RunView, triageOrder } from '@ckpt/core';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedViewer, startViewer } from '../src/index.js';
import { bigRun, CHROMIUM_ARGS, chromiumPath, copySample, resultsDir } from './helpers.js';

// Real headless Chromium against a live viewer over a private copy of the sample project.
const HOSTILE = '<img src=x onerror=window.__pwned=1><script>window.__pwned=2</script>&amp;';
const RELEASE = '.opencode/reports/release-v2-4-0-20261128T101500Z';

let browser: Browser;
let viewer: StartedViewer;
let sample: ReturnType<typeof copySample>;
let runs: RunView[];
const problems: string[] = [];

beforeAll(async () => {
  mkdirSync(resultsDir, { recursive: true });
  sample = copySample();
  // A run whose strings hold HTML and script: shown as text, never run.
  const xss = join(sample.dir, '.opencode/reports/xss-20261129T090000Z');
  cpSync(join(sample.dir, RELEASE), xss, { recursive: true });
  const env = readFileSync(join(xss, 'state.env'), 'utf8').replace(
    /TASK_NAME=".*"/,
    `TASK_NAME="${HOSTILE}"`,
  );
  writeFileSync(join(xss, 'state.env'), env);
  runs = loadProject(sample.dir);
  viewer = await startViewer({ dir: sample.dir, port: 0, debounceMs: 60 });
  browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  sample?.cleanup();
});

async function open(path: string, opts: { width?: number; dark?: boolean } = {}): Promise<Page> {
  const page = await browser.newPage({
    viewport: { width: opts.width ?? 1280, height: 900 },
    colorScheme: opts.dark ? 'dark' : 'light',
  });
  const origin = new URL(viewer.url).origin;
  page.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('data:'))
      problems.push(`outside request: ${r.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(new URL(path, viewer.url).href);
  await page.waitForSelector('body[data-rendered]');
  return page;
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(resultsDir, `${name}.png`), fullPage: true });
const runPath = (r: RunView) => `/runs/${encodeURIComponent(r.dialect)}/${encodeURIComponent(r.id)}`;

describe('runs page', () => {
  it('should list every run of every dialect with its status', async () => {
    const page = await open('/');
    const rows = await page.$$eval('.run-row', (els) =>
      els.map((e) => ({
        key: (e as HTMLElement).dataset.key,
        status: e.querySelector('.pill')?.textContent,
      })),
    );
    // In core's triage order (needs a person, running, the rest).
    expect(rows).toEqual(triageOrder(runs).map((r) => ({ key: `${r.dialect}/${r.id}`, status: r.status })));
    expect(new Set(rows.map((r) => r.key!.split('/')[0]))).toEqual(new Set(runs.map((r) => r.dialect)));
    await shot(page, 'runs-1280');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'runs-1280-dark');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'runs-390-dark');
    await page.close();
  });

  it('should filter by dialect and search by id, and navigate with the keyboard', async () => {
    const page = await open('/');
    await page.click('.seg button:has-text("resumable")');
    const n = runs.filter((r) => r.dialect === 'resumable').length;
    expect(await page.locator('.run-row').count()).toBe(n);
    expect(page.url()).toContain('dialect=resumable');
    await page.keyboard.press('/');
    await page.keyboard.type('rotate-api');
    expect(await page.locator('.run-row').count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/runs\/resumable\//);
    await page.keyboard.press('?');
    expect(await page.locator('#help').getAttribute('open')).not.toBeNull();
    await page.close();
  });

  it('should show a run that appears on disk without a reload', async () => {
    const page = await open('/');
    const before = await page.locator('.run-row').count();
    cpSync(join(sample.dir, RELEASE), join(sample.dir, '.opencode/reports/appeared-20261129T100000Z'), {
      recursive: true,
    });
    await page.waitForSelector('.run-row[data-key="resumable/appeared-20261129T100000Z"]', { timeout: 5000 });
    expect(await page.locator('.run-row').count()).toBe(before + 1);
    await page.close();
  });
});

describe('run page', () => {
  it('should show the facts of one run of each dialect as its RunView has them', async () => {
    const oneEach = [...new Map(runs.map((r) => [r.dialect, r])).values()];
    for (const run of oneEach) {
      const page = await open(runPath(run));
      expect(await page.textContent('h1')).toBe(run.title);
      expect(await page.textContent('.run-head .pill')).toBe(run.status);
      expect(await page.textContent('.progress-row .pct')).toContain(
        `${run.progress.done}/${run.progress.total} done`,
      );
      const chips = await page.$$eval('.run-head .chip', (els) =>
        els.map((e) => e.textContent?.replace(/\s+/g, ' ').trim()),
      );
      expect(chips).toEqual(Object.entries(run.counts).map(([s, n]) => `${s} ${n}`));
      expect(await page.textContent('.plan .summary')).toBe(run.resume.summary);
      expect(await page.locator('.finding').count()).toBe(Math.min(run.findings.length, 100));
      if (run.units.length > 0)
        expect(await page.locator('.unit-row').count()).toBe(Math.min(run.units.length, 40));
      await shot(page, `run-${run.dialect}-1280`);
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, `run-${run.dialect}-390`);
      await page.close();
    }
  });

  it('should deep-link a unit and a finding, and open the raw file at the finding line', async () => {
    const run = runs.find((r) => r.findings.length > 0 && r.units.length > 0)!;
    const unit = run.units.at(-1)!;
    const page = await open(`${runPath(run)}#unit-${encodeURIComponent(unit.id)}`);
    await page.waitForSelector('.unit-detail:not([hidden])');
    expect(await page.textContent('.unit-detail h3')).toContain(unit.id);
    await page.click('#finding-1 .meta a.mono');
    await page.waitForSelector('.raw-view .vrow.hit');
    const f = run.findings[0]!;
    expect(await page.textContent('.raw-view .vrow.hit > a')).toBe(String(f.line));
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'raw-1280-dark');
    await page.close();
  });

  it('should update when a checkpoint changes, and hold changes while paused', async () => {
    const run = runs.find((r) => r.id === 'release-v2-4-0-20261128T101500Z')!;
    const page = await open(runPath(run));
    const file = join(sample.dir, RELEASE, 'state.env');
    const setName = (name: string) =>
      writeFileSync(file, readFileSync(file, 'utf8').replace(/TASK_NAME=".*"/, `TASK_NAME="${name}"`));
    await page.waitForSelector('#live.on');
    // No wall-clock assertion (a loaded machine is slow, not wrong): the page must change without a reload.
    setName('renamed-live');
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'renamed-live', null, {
      timeout: 30_000,
    });

    await page.click('#pause');
    setName('renamed-while-paused');
    await page.waitForFunction(
      () => /waiting/.test(document.querySelector('#live')?.textContent ?? ''),
      null,
      { timeout: 3000 },
    );
    expect(await page.textContent('h1')).toBe('renamed-live');
    await page.click('#pause');
    await page.waitForFunction(
      () => document.querySelector('h1')?.textContent === 'renamed-while-paused',
      null,
      { timeout: 3000 },
    );
    await page.close();
  });

  it('should show strings holding HTML and script as text, never run them', async () => {
    const run = runs.find((r) => r.id === 'xss-20261129T090000Z')!;
    expect(run.title).toBe(HOSTILE);
    for (const path of ['/', runPath(run)]) {
      const page = await open(path);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.locator('img[src="x"]').count()).toBe(0);
      expect(await page.locator('main script').count()).toBe(0);
      if (path !== '/') expect(await page.textContent('h1')).toBe(HOSTILE);
      else
        expect(await page.textContent('.run-row[data-key="resumable/xss-20261129T090000Z"] .run-title')).toBe(
          HOSTILE,
        );
      await page.close();
    }
  });
});

describe('scale', () => {
  it('should render only the visible rows of a run of 10,000 units and scroll to the last', async () => {
    const big = bigRun(10_000, 5);
    const v = await startViewer({ dir: sample.dir, port: 0, watch: false, load: () => [big] });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const t0 = Date.now();
      await page.goto(`${v.url}runs/ulpi/big-10000`);
      await page.waitForSelector('body[data-rendered] .unit-row');
      const ms = Date.now() - t0;
      expect(await page.locator('.unit-row').count()).toBeLessThan(80);
      // The page document holds the first screen; the rest of the units arrive page by page.
      await page.waitForSelector('body[data-units="complete"]');
      await page.$eval('.vlist', (el) => {
        el.scrollTop = el.scrollHeight;
      });
      await page.waitForSelector('.unit-row[title="unit-09999"]');
      await page.keyboard.press('k');
      await shot(page, 'run-big-1280');
      process.stdout.write(`big run (10,000 units, 50,000 attempts) rendered in ${ms} ms\n`);
      await page.close();
    } finally {
      await v.close();
    }
  });

  it('should show the ids in view during a fling and each row its own unit after it (rows are reused)', async () => {
    const base = bigRun(10_000, 4);
    // Units with 1 to 4 attempts, so a reused row that kept another unit's facts would show the wrong count.
    const big = {
      ...base,
      units: base.units.map((u, i) => ({ ...u, attempts: u.attempts.slice(0, (i % 4) + 1) })),
    };
    const v = await startViewer({ dir: sample.dir, port: 0, watch: false, load: () => [big] });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${v.url}runs/ulpi/big-10000`);
      await page.waitForSelector('body[data-units="complete"]');
      // A fling: several screens a frame for 40 frames, stopping in the middle of the list. After each frame the
      // list drew, what it shows: the brief block (the ids in view, a line each) and any row left in the document.
      const frames = await page.$eval('.vlist', async (el) => {
        // A frame, and then the list's own frame callback (asked for by the scroll event) has run too.
        const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(() => r(null), 0)));
        // The run's blinking status dot in the header (the run is running).
        const dot = () =>
          document
            .getAnimations()
            .filter((a) => a instanceof CSSAnimation && a.animationName === 'blink')
            .map((a) => a.playState)
            .join(' ');
        // The timeline's canvas: whether it is far from the view (`away`), and whether the page draws it.
        const canvas = () => {
          const c = document.querySelector<HTMLElement>('.gantt-canvas');
          return c
            ? `${c.classList.contains('away') ? 'away' : 'near'} ${getComputedStyle(c).visibility}`
            : '';
        };
        const out: {
          top: number;
          sheet: string | null;
          at: string;
          rows: string[];
          dot: string;
          canvas: string;
        }[] = [];
        for (let f = 1; f <= 40; f++) {
          el.scrollTop = (f / 40) * (el.scrollHeight / 2);
          await frame();
          const sheet = el.querySelector<HTMLElement>('.vlist-brief');
          out.push({
            top: el.scrollTop,
            sheet: sheet && !sheet.hidden ? sheet.textContent : null,
            at: sheet?.style.transform ?? '',
            rows: [...el.querySelectorAll('.unit-row')].map(
              (row) => `${row.getAttribute('title')}=${row.querySelector('.uid')?.textContent}`,
            ),
            dot: dot(),
            canvas: canvas(),
          });
        }
        return out;
      });
      // While it moves, every frame shows the ids of the units in view, from the first one in view, at its place.
      for (const f of frames) {
        const first = Math.floor(f.top / 36);
        const ids = f.sheet?.split('\n') ?? [];
        expect(ids.length).toBeGreaterThan(10);
        ids.forEach((id, k) => expect(id).toBe(big.units[first + k]!.id));
        expect(f.at).toBe(`translateY(${first * 36}px)`);
        for (const s of f.rows) expect(s.split('=')[0]).toBe(s.split('=')[1]);
      }
      // The header's blinking dot stands still while the list scrolls (no restyle every frame), and blinks at rest.
      for (const f of frames) expect(f.dot).toBe('paused');
      // The timeline is below the list, far from the view: not drawn while the list scrolls (a canvas is handed to
      // the compositor again in every frame), drawn at rest and once it comes near the view.
      for (const f of frames) expect(f.canvas).toBe('away hidden');
      await page.waitForFunction(() => !document.documentElement.classList.contains('scrolling'));
      expect(
        await page.$eval(
          '.gantt-canvas',
          (c) => `${c.classList.contains('away')} ${getComputedStyle(c).visibility}`,
        ),
      ).toBe('true visible');
      expect(
        await page.evaluate(() =>
          document
            .getAnimations()
            .filter((a) => a instanceof CSSAnimation && a.animationName === 'blink')
            .map((a) => a.playState),
        ),
      ).toEqual(['running']);
      // Once it stops, every row shows its unit in full: its tries and one bar per attempt.
      await page.waitForSelector('.vlist-brief', { state: 'hidden' });
      // A quicker scroll than the margin holds (10 rows a frame, less than a screen): full rows, or the ids while
      // the scroll brings more rows into view than this machine fills in a frame; then the rows come back, a frame's
      // share at a time, each over its id (how many a frame depends on the machine: see the next test). Every frame
      // shows, for each row in view, its unit: its id in the block or its own row.
      const medium = await page.$eval('.vlist', async (el) => {
        // A frame, and then the list's own frame callback (asked for by the scroll event) has run too.
        const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(() => r(null), 0)));
        const sheet = el.querySelector<HTMLElement>('.vlist-brief')!;
        const y = (e: HTMLElement) => Number(/translateY\((\d+)px\)/.exec(e.style.transform)?.[1]) / 36;
        // What the list shows at each row in view: a visible row (its title and id), else the block's line there.
        const shown = () => {
          const first = Math.floor(el.scrollTop / 36);
          const last = Math.ceil((el.scrollTop + el.clientHeight) / 36) - 1;
          const lines = sheet.hidden ? [] : (sheet.textContent ?? '').split('\n');
          const rows = new Map<number, HTMLElement>();
          for (const r of el.querySelectorAll<HTMLElement>('.unit-row'))
            if (r.checkVisibility({ visibilityProperty: true })) rows.set(y(r), r);
          const at: string[] = [];
          let full = 0;
          for (let i = first; i <= last; i++) {
            const r = rows.get(i);
            if (r) full++;
            at.push(r ? `${r.title}=${r.querySelector('.uid')?.textContent}` : `${lines[i - y(sheet)]}`);
          }
          return { first, at, full, sheet: !sheet.hidden, step: 0 };
        };
        const out: ReturnType<typeof shown>[] = [];
        for (const step of [10, 10, 10, 6, 6, 3, 1, 1]) {
          el.scrollTop += step * 36;
          await frame();
          out.push({ ...shown(), step });
        }
        // Then frames without a scroll, until every row is back (a few a frame: at most 30 frames).
        for (let f = 0; f < 30 && !sheet.hidden; f++) {
          await frame();
          out.push(shown());
        }
        return out;
      });
      const mode = medium.map((f) => (!f.sheet ? 'rows' : f.full === 0 ? 'ids' : 'filling'));
      expect(mode.at(-1)).toBe('rows');
      expect(mode.length).toBeGreaterThanOrEqual(8);
      medium.forEach((f, k) => {
        f.at.forEach((s, j) => {
          const id = big.units[f.first + j]!.id;
          expect(s === id || s === `${id}=${id}`).toBe(true);
        });
        // The rows come back 12 a frame at most (a fast machine's share; fewer on a slower one).
        if (k > 0) expect(f.full - medium[k - 1]!.full).toBeLessThanOrEqual(12);
      });
      // Once back, every row in view is its own full row.
      expect(medium.at(-1)!.full).toBe(medium.at(-1)!.at.length);
      await page.waitForFunction(() =>
        [...document.querySelectorAll('.unit-row')].every(
          (r) => r.querySelector('.tries')?.textContent !== '',
        ),
      );
      const rows = await page.$$eval('.unit-row', (rs) =>
        rs.map((r) => ({
          id: r.getAttribute('title') ?? '',
          tries: r.querySelector('.tries')?.textContent,
          bars: r.querySelectorAll('.seg-bar').length,
          pill: r.querySelector('.pill')?.textContent,
        })),
      );
      expect(rows.length).toBeGreaterThan(10);
      for (const r of rows) {
        const i = Number(r.id.slice('unit-'.length));
        const n = (i % 4) + 1;
        expect(r).toEqual({
          id: r.id,
          tries: n === 1 ? '1 try' : `${n} tries`,
          bars: n,
          pill: big.units[i]!.status,
        });
      }
      await page.close();
    } finally {
      await v.close();
    }
  });

  it('should fill as many rows a frame as its measured pace allows, and show the ids for a quicker scroll', async () => {
    const page = await open('/');
    // A list of 10,000 items alone on a page, whose pace (the rows a frame may fill, measured from its frames on the
    // machine it runs on) is set: a slow machine's (2) and a fast one's (12).
    await page.evaluate(`import('/static/vlist.js').then(({ VirtualList }) => {
      window.makeList = (rows) => {
        const list = new VirtualList({
          rowHeight: 36,
          label: 'Items',
          maxHeight: () => 540,
          className: 'units',
          render: (item) => {
            const row = document.createElement('div');
            row.className = 'unit-row';
            row.append(document.createElement('span'));
            list.opts.update(row, item);
            return row;
          },
          update: (row, item) => {
            row.title = item;
            row.firstChild.textContent = item;
          },
          brief: (item) => item,
        });
        list.pace = { rows: () => rows, fill: () => rows, record: () => undefined };
        document.querySelector('main').replaceChildren(list.el);
        list.setItems(Array.from({ length: 10000 }, (_, i) => 'item-' + i));
      };
    })`);
    const scroll = (rows: number, steps: number[]) =>
      page.evaluate(
        async ({ rows, steps }) => {
          (window as unknown as { makeList: (n: number) => void }).makeList(rows);
          const el = document.querySelector<HTMLElement>('.vlist')!;
          const sheet = el.querySelector<HTMLElement>('.vlist-brief')!;
          const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(() => r(null), 0)));
          await frame();
          const y = (e: HTMLElement) => Number(/translateY\((\d+)px\)/.exec(e.style.transform)?.[1]) / 36;
          // What the list shows at each row in view: a visible row, else the block's line there.
          const shown = () => {
            const first = Math.floor(el.scrollTop / 36);
            const last = Math.ceil((el.scrollTop + el.clientHeight) / 36) - 1;
            const lines = sheet.hidden ? [] : (sheet.textContent ?? '').split('\n');
            const visible = new Map<number, HTMLElement>();
            for (const r of el.querySelectorAll<HTMLElement>('.unit-row'))
              if (r.checkVisibility({ visibilityProperty: true })) visible.set(y(r), r);
            let full = 0;
            const wrong: string[] = [];
            for (let i = first; i <= last; i++) {
              const r = visible.get(i);
              if (r) full++;
              const s = r ? `${r.title}=${r.textContent}` : lines[i - y(sheet)];
              if (s !== `item-${i}` && s !== `item-${i}=item-${i}`) wrong.push(`${i}: ${s}`);
            }
            return { mode: sheet.hidden ? 'rows' : full === 0 ? 'ids' : 'filling', full, wrong };
          };
          const out: ReturnType<typeof shown>[] = [];
          for (const step of steps) {
            el.scrollTop += step * 36;
            await frame();
            out.push(shown());
          }
          // Then frames without a scroll, until every row is back.
          for (let f = 0; f < 30 && !sheet.hidden; f++) {
            await frame();
            out.push(shown());
          }
          return out;
        },
        { rows, steps },
      );
    // A slow machine: 10 rows a frame fills the 2 rows a frame may fill while the margin lasts, then shows the ids
    // until a frame moves the list by 1 row; then the rows come back 2 a frame, each over its id.
    const slow = await scroll(2, [10, 10, 10, 6, 6, 3, 1, 1]);
    expect(slow.slice(0, 8).map((f) => f.mode)).toEqual([
      'rows',
      'rows',
      'ids',
      'ids',
      'ids',
      'ids',
      'filling',
      'filling',
    ]);
    expect(slow.at(-1)!.mode).toBe('rows');
    slow.forEach((f, k) => {
      expect(f.wrong).toEqual([]);
      if (k > 0 && f.mode !== 'ids') expect(f.full - slow[k - 1]!.full).toBeLessThanOrEqual(2);
    });
    // A fast machine: a quick wheel (6 rows a frame, and a frame late: 10) shows full rows in every frame.
    const fast = await scroll(12, [6, 6, 6, 6, 10, 6, 6, 10, 10, 6]);
    for (const f of fast) expect(f).toEqual({ mode: 'rows', full: 15, wrong: [] });
    await page.close();
  });

  it('should make no request outside the server and log no error on any page', () => {
    expect(problems).toEqual([]);
  });
});
