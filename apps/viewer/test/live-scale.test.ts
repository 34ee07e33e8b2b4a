// A team run of 10,000 tasks and ~100,000 event files, generated in a temp folder and served with the real
// watcher and loader thread. Facts only (no speed): the server answers while it loads, the page shows the load's
// progress, the first response stays small, and a new event file reaches the open page as a one-unit delta.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script of the bench package, no types
import { generateTeamRun } from '../../../packages/bench/src/view-corpus.mjs';
import { type StartedViewer, startViewer } from '../src/index.js';
import type { ChangeEvent } from '../src/project.js';
import { CHROMIUM_ARGS, chromiumPath } from './helpers.js';
import { recordChanges, until } from './live-helpers.js';

const TASKS = 10_000;
let dir: string;
let runId: string;
let events: number;
let browser: Browser;
let viewer: StartedViewer;
let changes: ChangeEvent[];
let progressAtStart: { state: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ckpt-live-scale-'));
  ({ runId, events } = generateTeamRun(dir, TASKS, 5) as { runId: string; events: number });
  viewer = await startViewer({ dir, port: 0 });
  progressAtStart = await (await fetch(new URL('/api/progress', viewer.url))).json();
  changes = recordChanges(viewer.project);
  browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  // Deleting 100,000 files can take minutes on a busy disk: a detached process does it after the suite.
  if (dir)
    spawn(
      process.execPath,
      ['-e', `require('node:fs').rmSync(${JSON.stringify(dir)}, { recursive: true, force: true })`],
      { detached: true, stdio: 'ignore' },
    ).unref();
});

describe(`a team run of ${TASKS} tasks`, () => {
  it('should answer while it loads, show the progress, then the run with a first response under 500 KB', async () => {
    expect(events).toBeGreaterThan(95_000);
    // The server listened before the load ended: its first answer says it is loading.
    expect(progressAtStart.state).toBe('loading');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${viewer.url}runs/team/${encodeURIComponent(runId)}`);
    if (!viewer.project.isReady)
      expect(await page.locator('#main .loading').textContent()).toMatch(/^Loading/);
    await page.waitForSelector('body[data-rendered] .unit-row', { timeout: 300_000 }).catch((e) => {
      throw new Error(`${e.message}\nprogress: ${JSON.stringify(viewer.project.progress())}`);
    });
    expect(viewer.project.progress()).toMatchObject({ state: 'ready', runs: 1 });

    const res = await fetch(new URL(`/api/runs/team/${encodeURIComponent(runId)}/page`, viewer.url), {
      headers: { 'accept-encoding': 'identity' },
    });
    const body = await res.text();
    expect(body.length).toBeLessThan(500_000);
    expect(JSON.parse(body).run.unitsTotal).toBe(TASKS);

    // A sixth attempt of the second task: the open page shows it without a reload, as a one-unit delta.
    await until('the watcher', () => viewer.watcher() !== undefined, 120_000);
    expect(viewer.watcher()?.backend).toBe('parcel');
    const row = page.locator('.unit-row[title="build-t00001"] .tries');
    expect(await row.textContent()).toBe('5 tries');
    const runDir = join(dir, '.team', 'runs', runId);
    const n = changes.length;
    // A copy of its fifth start, as attempt 6 (the loader reports the retry of a completed attempt as a finding).
    const fifth = readdirSync(join(runDir, 'events')).find((f) =>
      f.includes('task_started-build-t00001-a5'),
    )!;
    const event = JSON.parse(readFileSync(join(runDir, 'events', fifth), 'utf8'));
    writeFileSync(
      join(runDir, 'events', '20261130T000000000000Z-task_started-build-t00001-a6-live01.json'),
      `${JSON.stringify({ ...event, at: '2026-11-30T00:00:00Z', attempt: 6, retry_of: 5 }, null, 2)}\n`,
    );
    await page.waitForFunction(
      () => document.querySelector('.unit-row[title="build-t00001"] .tries')?.textContent === '6 tries',
      undefined,
      { timeout: 180_000 },
    );
    const delta = changes
      .slice(n)
      .flatMap((c) => c.deltas)
      .find((d) => d.key === `team/${runId}`);
    expect(delta).toMatchObject({ kind: 'changed', units: ['build-t00001'], unitsRemoved: [] });
    expect(readdirSync(join(runDir, 'events')).length).toBe(events + 1);
    await page.close();
  }, 600_000);
});
