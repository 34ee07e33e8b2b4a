import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadProject, needsPerson, type RunView, triageOrder } from '@ckpt/core';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedViewer, startViewer } from '../src/index.js';
import { bigRun, CHROMIUM_ARGS, chromiumPath, copySample, resultsDir, samplePath } from './helpers.js';

// The viewer as an on-call tool, in real headless Chromium over the sample project: triage order, reasons, copy
// buttons, the tab's live count, layouts at 390 and 1280 px (screenshots in test-results/), very long strings.
let browser: Browser;
let viewer: StartedViewer;
let runs: RunView[];
const problems: string[] = [];

beforeAll(async () => {
  mkdirSync(resultsDir, { recursive: true });
  runs = triageOrder(loadProject(samplePath));
  viewer = await startViewer({ dir: samplePath, port: 0, watch: false });
  browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
});

const runPath = (r: { dialect: string; id: string }) =>
  `/runs/${encodeURIComponent(r.dialect)}/${encodeURIComponent(r.id)}`;
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(resultsDir, `${name}.png`), fullPage: true });

async function open(base: string, path: string, width = 1280, context?: BrowserContext): Promise<Page> {
  const page = await (context ?? browser).newPage({ viewport: { width, height: 900 } });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.goto(new URL(path, base).href);
  await page.waitForSelector('body[data-rendered]');
  return page;
}

/** Elements wider than their box (content cut or spilling), and whether the page scrolls sideways. */
function overflowing(page: Page, selectors: string) {
  return page.evaluate((sel) => {
    const out: string[] = [];
    for (const el of document.querySelectorAll(sel))
      if (el.scrollWidth > el.clientWidth + 1)
        out.push(`${el.className}: ${el.scrollWidth} > ${el.clientWidth} (${el.textContent?.slice(0, 40)})`);
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth) out.push(`page: ${doc.scrollWidth} > ${doc.clientWidth}`);
    return out;
  }, selectors);
}
const CHECKED =
  '.topbar, .page-head, .toolbar, .run-row, .run-row .pill, .badge, .run-head, .run-head .pill, .title-row, .toc, .cmd-line, .attention-box, .unit-row .pill, .panel';

describe('triage', () => {
  it('should list the sample project with the runs that need a person first, each with its reason and stale flag', async () => {
    const page = await open(viewer.url, '/');
    const rows = await page.$$eval('.run-row', (els) =>
      els.map((e) => ({
        key: (e as HTMLElement).dataset.key,
        why: e.querySelector('.why')?.textContent ?? null,
        stale: e.querySelector('.badge.stale') !== null,
        dialect: e.querySelector('.c-dialect')?.textContent,
      })),
    );
    expect(rows.map((r) => r.key)).toEqual(runs.map((r) => `${r.dialect}/${r.id}`));
    const need = runs.filter((r) => needsPerson(r.attention)).length;
    expect(need).toBeGreaterThan(0);
    expect(runs.slice(0, need).every((r) => needsPerson(r.attention))).toBe(true);
    runs.forEach((r, i) => {
      expect(rows[i]!.why).toBe(r.attention.reasons[0]?.message ?? null);
      expect(rows[i]!.stale).toBe(r.attention.reasons.some((x) => x.code === 'run/stale'));
      expect(rows[i]!.dialect).toBe(r.dialect);
    });
    expect(rows.some((r) => r.stale)).toBe(true);
    expect(await page.textContent('.tally')).toContain(`${need} need attention`);
    await page.close();
  });

  it('should say in the run header why the run needs a person, with every command copyable and whole', async () => {
    const run = runs.find((r) => r.attention.reasons.length >= 2 && r.dialect === 'team')!;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(viewer.url).origin,
    });
    const page = await open(viewer.url, runPath(run), 1280, context);
    const reasons = await page.$$eval('.attention-reasons > li', (els) =>
      els.map((e) => ({
        message: e.querySelector('b')?.textContent,
        command: e.querySelector('.cmd-text')?.textContent ?? undefined,
      })),
    );
    expect(reasons).toEqual(run.attention.reasons.map((x) => ({ message: x.message, command: x.command })));
    // Every command is shown whole: nothing cut, nothing scrolled.
    expect(await overflowing(page, '.cmd-text, .cmd-line')).toEqual([]);
    // The plan's approve command (in a needs-a-person item) has its copy button too, and is complete: run, stage,
    // the artifact the waiting task named, and the approver.
    expect(
      await page.$$eval('.plan .cmd-line.inline .cmd-text', (els) => els.map((e) => e.textContent)),
    ).toContainEqual(
      expect.stringMatching(
        new RegExp(`^ckpt team approve --run ${run.id} --stage \\S+ --artifact \\S+ --by "\\$USER"$`),
      ),
    );
    const buttons = page.locator('.attention-reasons .copy');
    expect(await buttons.count()).toBe(run.attention.reasons.filter((x) => x.command).length);
    for (let i = 0; i < (await buttons.count()); i++) {
      await buttons.nth(i).click();
      await page.waitForSelector(`.attention-reasons li:nth-child(${i + 1}) .copy[data-copied]`);
      expect(await buttons.nth(i).getAttribute('data-copied')).toBe('clipboard');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
        run.attention.reasons.filter((x) => x.command)[i]!.command,
      );
    }
    await context.close();
  });

  it('should copy with the fallback where the Clipboard API is missing (a viewer opened over plain http)', async () => {
    const run = runs.find((r) => r.resume.needsPerson.some((i) => i.reason.includes('`')))!;
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
      document.addEventListener('copy', () => {
        (window as unknown as { copied: string }).copied = String(document.getSelection());
      });
    });
    const page = await open(viewer.url, runPath(run), 390, context);
    // A command inside a plan item (take over a lock) is a command line of its own.
    const inline = page.locator('.plan .cmd-line.inline').first();
    const text = await inline.locator('.cmd-text').textContent();
    expect(run.resume.needsPerson.some((i) => i.reason.includes(`\`${text}\``))).toBe(true);
    await inline.locator('.copy').click();
    await page.waitForSelector('.plan .cmd-line.inline .copy[data-copied]');
    expect(await inline.locator('.copy').getAttribute('data-copied')).toBe('fallback');
    expect(await page.evaluate(() => (window as unknown as { copied: string }).copied)).toBe(text);
    await context.close();
  });

  it('should show the number of runs that need a person in the tab title and favicon, and change it live', async () => {
    const sample = copySample();
    const v = await startViewer({ dir: sample.dir, port: 0, debounceMs: 60 });
    try {
      const need = runs.filter((r) => needsPerson(r.attention)).length;
      const other = runs.find((r) => r.id === 'add-oauth-20261129T071300Z')!;
      const gone = runs.find((r) => r.id === 'rotate-api-keys-20261128T143000Z')!;
      expect(needsPerson(gone.attention)).toBe(true);
      const list = await open(v.url, '/');
      const page = await open(v.url, runPath(other));
      const tab = (p: Page) =>
        p.evaluate(() => ({
          title: document.title,
          icon: decodeURIComponent(document.querySelector('link[rel="icon"]')?.getAttribute('href') ?? ''),
        }));
      for (const p of [list, page]) {
        await p.waitForFunction((n) => document.title.startsWith(`(${n}) `), need);
        const t = await tab(p);
        expect(t.icon).toMatch(/^data:image\/svg\+xml,/);
        expect(t.icon).toContain(`>${need}</text>`);
      }
      expect((await tab(page)).title).toBe(`(${need}) ${other.title} · ${other.status} · ckpt`);
      // Another run goes away: both tabs count one less, without a reload (the run page too, though it shows
      // a different run).
      await page.waitForSelector('#live.on');
      rmSync(join(sample.dir, gone.root), { recursive: true, force: true });
      for (const p of [list, page]) {
        await p.waitForFunction((n) => document.title.startsWith(`(${n}) `), need - 1, { timeout: 30_000 });
        expect((await tab(p)).icon).toContain(`>${need - 1}</text>`);
      }
      await list.close();
      await page.close();
    } finally {
      await v.close();
      sample.cleanup();
    }
  });

  it('should keep the tab title and favicon count while live updates are paused, and update them on resume', async () => {
    const sample = copySample();
    const v = await startViewer({ dir: sample.dir, port: 0, debounceMs: 60 });
    try {
      const need = runs.filter((r) => needsPerson(r.attention)).length;
      const other = runs.find((r) => r.id === 'add-oauth-20261129T071300Z')!;
      const gone = runs.find((r) => r.id === 'rotate-api-keys-20261128T143000Z')!;
      const list = await open(v.url, '/');
      const page = await open(v.url, runPath(other));
      for (const p of [list, page]) {
        await p.waitForFunction((n) => document.title.startsWith(`(${n}) `), need);
        await p.waitForSelector('#live.on');
        // Every change of the title or the icon from here on, whenever it happens.
        await p.evaluate(() => {
          const w = window as unknown as { tabChanges: string[] };
          w.tabChanges = [];
          const icon = document.querySelector('link[rel="icon"]')!;
          new MutationObserver(() =>
            w.tabChanges.push(`icon ${icon.getAttribute('href')?.slice(-80)}`),
          ).observe(icon, { attributes: true });
          new MutationObserver(() => w.tabChanges.push(`title ${document.title}`)).observe(
            document.querySelector('title')!,
            { childList: true, characterData: true, subtree: true },
          );
        });
        await p.click('#pause');
        await p.waitForSelector('#live.paused');
      }
      rmSync(join(sample.dir, gone.root), { recursive: true, force: true });
      // The runs page counts the change as waiting (the run page of another run has nothing to show for it).
      await list.waitForFunction(
        () => /waiting/.test(document.querySelector('#live')?.textContent ?? ''),
        null,
        {
          timeout: 30_000,
        },
      );
      // Time for a count fetched on the change to arrive (it came within milliseconds when paused pages updated).
      await list.waitForTimeout(1500);
      for (const p of [list, page]) {
        expect(await p.evaluate(() => (window as unknown as { tabChanges: string[] }).tabChanges)).toEqual(
          [],
        );
        expect(await p.title()).toMatch(new RegExp(`^\\(${need}\\) `));
      }
      // Resumed, both tabs count the run that went away.
      for (const p of [list, page]) {
        await p.click('#pause');
        await p.waitForFunction((n) => document.title.startsWith(`(${n}) `), need - 1, { timeout: 30_000 });
        expect(decodeURIComponent((await p.getAttribute('link[rel="icon"]', 'href')) ?? '')).toContain(
          `>${need - 1}</text>`,
        );
      }
      await list.close();
      await page.close();
    } finally {
      await v.close();
      sample.cleanup();
    }
  });

  it('should highlight a deep-linked finding, also after a reload', async () => {
    const run = runs.find((r) => r.findings.length > 1)!;
    const page = await open(viewer.url, `${runPath(run)}#finding-2`);
    await page.waitForSelector('#finding-2.hl');
    await page.reload();
    await page.waitForSelector('body[data-rendered]');
    await page.waitForSelector('#finding-2.hl');
    expect(await page.locator('.finding.hl').count()).toBe(1);
    await page.close();
  });
});

describe('layout', () => {
  it('should fit the runs page at 1280 and 390 px: nothing clipped, counts whole, cards with their dialect', async () => {
    for (const width of [1280, 390]) {
      const page = await open(viewer.url, '/', width);
      expect(await overflowing(page, CHECKED), `runs ${width}`).toEqual([]);
      // Counts are whole: no ellipsis anywhere in the progress cells.
      const nums = await page.$$eval('.run-row .nums', (els) => els.map((e) => e.textContent ?? ''));
      runs.forEach((r, i) => {
        expect(nums[i]).toContain(`${r.progress.done}/${r.progress.total} done`);
        for (const [s, n] of Object.entries(r.counts))
          if (s !== 'done' && s !== 'completed') expect(nums[i]).toContain(`${n} ${s}`);
      });
      expect(await page.locator('.run-row .c-dialect .badge:visible').count()).toBe(runs.length);
      await shot(page, `triage-runs-${width}`);
      await page.close();
    }
  });

  it('should fit a run page of each dialect at 1280 and 390 px, with the resume plan before the files at 390', async () => {
    const oneEach = [...new Map(runs.map((r) => [r.dialect, r])).values()];
    for (const run of oneEach)
      for (const width of [1280, 390]) {
        const page = await open(viewer.url, runPath(run), width);
        expect(await overflowing(page, CHECKED), `${run.dialect} ${width}`).toEqual([]);
        const y = (sel: string) => page.$eval(sel, (e) => e.getBoundingClientRect().top);
        if (width === 390) expect(await y('#resume')).toBeLessThan(await y('#sources'));
        expect(await page.textContent('.run-head .badge.dialect')).toBe(run.dialect);
        await shot(page, `triage-run-${run.dialect}-${width}`);
        await page.close();
      }
  });

  it('should show a resumable stage flagged done with an error finding in the error tone, with attempts and checks apart', async () => {
    const run = runs.find((r) => r.id === 'rotate-api-keys-20261128T143000Z')!;
    const page = await open(viewer.url, runPath(run));
    const m2 = page.locator('.unit-row[title="M2"]');
    expect(await m2.locator('.pill').textContent()).toBe('done-with-errors');
    expect(await m2.locator('.pill').getAttribute('class')).toContain('tone-error');
    expect(await m2.locator('.checks').textContent()).toBe('1/2 ✓');
    expect(await m2.locator('.tries').textContent()).toBe('—');
    await page.close();
  });
});

describe('very long strings', () => {
  it('should wrap a 20,000-character title and open a unit whose id is 3,000 characters long', async () => {
    const title = 'T'.repeat(20_000);
    const longId = `u${'x'.repeat(2_999)}`;
    const big = bigRun(3, 1, { title });
    const units = big.units.map((u, i) => (i === 1 ? { ...u, id: longId } : u));
    const v = await startViewer({
      dir: samplePath,
      port: 0,
      watch: false,
      load: () => [{ ...big, units }],
    });
    try {
      for (const width of [1280, 390]) {
        for (const path of ['/', runPath(big)]) {
          const page = await open(v.url, path, width);
          const w = await page.evaluate(() => document.documentElement.scrollWidth);
          expect(w, `${path} at ${width}`).toBeLessThanOrEqual(width);
          expect(await overflowing(page, CHECKED), `${path} at ${width}`).toEqual([]);
          await shot(page, `triage-long-title-${path === '/' ? 'runs' : 'run'}-${width}`);
          await page.close();
        }
      }
      // The unit opens by a click and by its deep link; the detail is fetched by index, not by the id.
      const page = await open(v.url, runPath(big));
      // The header shows the title's start, and all of it on request, still within the page's width.
      expect((await page.textContent('h1'))?.length).toBeLessThan(400);
      await page.click('.whole-title');
      expect(await page.textContent('h1')).toBe(title);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
      const asked: string[] = [];
      page.on('request', (r) => asked.push(r.url()));
      await page.click('.unit-row:nth-child(2)');
      await page.waitForFunction(
        (id) => document.querySelector('.unit-detail h3')?.textContent?.includes(id),
        longId,
      );
      expect(asked.some((u) => u.includes('/unit?index=1'))).toBe(true);
      const status = await page.evaluate(
        async (u) => (await fetch(u)).status,
        `/api${runPath(big)}/unit?index=1`,
      );
      expect(status).toBe(200);
      await page.reload();
      await page.waitForSelector('.unit-detail:not([hidden])');
      expect(await page.textContent('.unit-detail h3')).toContain(longId);
      await page.close();
    } finally {
      await v.close();
    }
  });

  it('should log no error in any page', () => {
    expect(problems).toEqual([]);
  });
});
