import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedViewer, startViewer } from '../src/index.js';
import { CHROMIUM_ARGS, chromiumPath, copySample } from './helpers.js';

// The raw file view masks secret-looking values by default; showing them is an explicit toggle in the page.
const RAW = '.ulpi/runs/lint-sweep-20260812T140210Z.json';
// Built at run time, so the repository holds no secret-looking literal.
const SECRET = `ghp_${'K4'.repeat(15)}`;

let browser: Browser;
let viewer: StartedViewer;
let sample: ReturnType<typeof copySample>;

beforeAll(async () => {
  sample = copySample();
  const file = join(sample.dir, RAW);
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace('41 errors fixed', `41 errors fixed with ${SECRET}`),
  );
  viewer = await startViewer({ dir: sample.dir, port: 0, watch: false });
  browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  sample?.cleanup();
});

describe('the raw file page', () => {
  it('should mask secrets until Reveal secrets is pressed, and mask them again on Mask secrets', async () => {
    const page = await browser.newPage();
    await page.goto(new URL(`/raw?path=${encodeURIComponent(RAW)}`, viewer.url).href);
    await page.waitForSelector('.raw-view .vrow');
    const shown = async () => (await page.locator('.raw-view').textContent()) ?? '';
    expect(await shown()).toContain('[REDACTED:github-token]');
    expect(await shown()).not.toContain(SECRET);
    const toggle = page.locator('button.reveal-secrets');
    expect(await toggle.textContent()).toBe('Reveal secrets');
    await toggle.click();
    await page.waitForFunction(() => document.querySelector('.raw-view')?.textContent?.includes('ghp_'));
    expect(await shown()).toContain(SECRET);
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await toggle.click();
    await page.waitForFunction(() => document.querySelector('.raw-view')?.textContent?.includes('REDACTED'));
    expect(await shown()).not.toContain(SECRET);
    await page.close();
  });

  it('should not offer the toggle for a file without secrets', async () => {
    const page = await browser.newPage();
    await page.goto(
      new URL(`/raw?path=${encodeURIComponent('.ulpi/runs/run-2026-11-27-152204Z.json')}`, viewer.url).href,
    );
    await page.waitForSelector('.raw-view .vrow');
    expect(await page.locator('button.reveal-secrets').isHidden()).toBe(true);
    await page.close();
  });
});
