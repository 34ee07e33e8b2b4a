import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunView, UnitView } from '@ckpt/core';
import { afterAll, beforeAll } from 'vitest';
import { createViewer, type Viewer } from '../src/index.js';

export const repoRoot = resolve(import.meta.dirname, '../../..');
export const samplePath = join(repoRoot, 'test-fixtures/sample-project');
export const resultsDir = resolve(import.meta.dirname, '../test-results');

/**
 * A viewer on the sample project (not watching) for the calling suite: started before its tests, closed after them.
 * `get` sends a GET through fastify's inject; `viewer()` is the instance, for other methods.
 */
export function sampleViewer(): {
  viewer: () => Viewer;
  get: (url: string, headers?: Record<string, string>) => ReturnType<Viewer['app']['inject']>;
} {
  let viewer: Viewer | undefined;
  beforeAll(async () => {
    viewer = await createViewer({ dir: samplePath, watch: false });
  });
  afterAll(() => viewer?.close());
  const started = (): Viewer => {
    if (!viewer) throw new Error('sampleViewer: the viewer has not started');
    return viewer;
  };
  return {
    viewer: started,
    get: (url, headers = {}) => started().app.inject({ method: 'GET', url, headers }),
  };
}

/** A private copy of the sample project, so a test can change files. */
export function copySample(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ckpt-viewer-'));
  cpSync(samplePath, dir, { recursive: true });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A synthetic run of `n` units, each with `attempts` attempts, for scale and injection tests. */
export function bigRun(n: number, attempts = 5, fields: Partial<RunView> = {}): RunView {
  const t0 = Date.parse('2026-11-28T00:00:00Z');
  const iso = (ms: number) => new Date(ms).toISOString();
  const statuses = [
    ['done', 'ok'],
    ['failed', 'error'],
    ['running', 'active'],
    ['pending', 'neutral'],
  ] as const;
  const units: UnitView[] = [];
  const counts: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    const [status, tone] = statuses[i % 7 === 0 ? 1 : i % 11 === 0 ? 2 : i % 13 === 0 ? 3 : 0]!;
    counts[status] = (counts[status] ?? 0) + 1;
    const start = t0 + i * 6000;
    units.push({
      id: `unit-${String(i).padStart(5, '0')}`,
      status,
      tone,
      dependsOn: i > 0 ? [`unit-${String(i - 1).padStart(5, '0')}`] : [],
      inputs: [],
      artifacts: [],
      startedAt: iso(start),
      durationMs: attempts * 4000,
      attempts: Array.from({ length: attempts }, (_, k) => ({
        attempt: k + 1,
        status: k === attempts - 1 ? status : 'failed',
        tone: k === attempts - 1 ? tone : 'error',
        startedAt: iso(start + k * 5000),
        ...(k === attempts - 1 && status === 'running' ? {} : { endedAt: iso(start + k * 5000 + 4000) }),
        durationMs: 4000,
      })),
    });
  }
  return {
    id: `big-${n}`,
    dialect: 'ulpi',
    title: `synthetic run of ${n} units`,
    status: 'running',
    tone: 'active',
    attention: { level: 'none', reasons: [] },
    root: '.ulpi/runs',
    sources: [],
    createdAt: iso(t0),
    updatedAt: iso(t0 + n * 6000),
    phases: [],
    units,
    approvals: [],
    counts,
    progress: { done: counts.done ?? 0, total: n },
    findings: [],
    resume: {
      summary: 'run the failed units',
      skip: [],
      runNext: [],
      blocked: [],
      needsPerson: [],
      notes: [],
    },
    details: [],
    ...fields,
  };
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
];
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
