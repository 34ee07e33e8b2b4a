import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createViewer, type Viewer } from '../src/index.js';
import { samplePath as SAMPLE_DIR } from './helpers.js';

// Issue 15, item 5: a symlink inside the project that points outside it is never read by the viewer, on every
// route: not by the loader behind /api/runs and the run pages, not by /api/raw. Two projects, each served by the
// viewer with its real loader: one with links to outside files (a run document and /etc/passwd), one whose runs
// folder is a link to an outside folder.
const STOLEN = 'stolen-title-from-outside';
const ULPI_RUN = '.ulpi/runs/add-oauth-20261129T071300Z.json';

let base: string;
const viewers: Viewer[] = [];

function outsideRun(id: string): string {
  const doc = JSON.parse(readFileSync(join(SAMPLE_DIR, ULPI_RUN), 'utf8'));
  doc.id = id;
  doc.task = STOLEN;
  return `${JSON.stringify(doc, null, 2)}\n`;
}

async function serve(dir: string): Promise<(url: string) => Promise<{ status: number; body: string }>> {
  const viewer = await createViewer({ dir, watch: false });
  viewers.push(viewer);
  await viewer.project.ready();
  return async (url) => {
    const res = await viewer.app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.body };
  };
}

const expectNothingFromOutside = (url: string, body: string) => {
  expect(body, url).not.toContain(STOLEN);
  expect(body, url).not.toContain('root:');
  // /etc/passwd's first character would show in a parse finding ("unexpected character").
  expect(body, url).not.toContain('unexpected character');
};

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'ckpt-outside-'));
  mkdirSync(join(base, 'elsewhere/runs'), { recursive: true });
  writeFileSync(join(base, 'elsewhere/link.json'), outsideRun('link'));
  writeFileSync(join(base, 'elsewhere/runs/dirlink.json'), outsideRun('dirlink'));
  // Project 1: file links.
  mkdirSync(join(base, 'files/.ulpi/runs'), { recursive: true });
  writeFileSync(join(base, 'files', ULPI_RUN), readFileSync(join(SAMPLE_DIR, ULPI_RUN)));
  symlinkSync(join(base, 'elsewhere/link.json'), join(base, 'files/.ulpi/runs/link.json'));
  symlinkSync('/etc/passwd', join(base, 'files/.ulpi/runs/passwd.json'));
  // Project 2: the runs folder itself is a link out.
  mkdirSync(join(base, 'dirs/.ulpi'), { recursive: true });
  symlinkSync(join(base, 'elsewhere/runs'), join(base, 'dirs/.ulpi/runs'));
});
afterAll(async () => {
  for (const v of viewers) await v.close();
  rmSync(base, { recursive: true, force: true });
});

describe('a symlink to a file outside the project', () => {
  it('is a finding on every route that shows the run, and its target is never read', async () => {
    const get = await serve(join(base, 'files'));
    const runs = JSON.parse((await get('/api/runs')).body) as {
      runs: { id: string; findings: { code: string; file: string }[] }[];
    };
    for (const id of ['link', 'passwd'])
      expect(runs.runs.find((r) => r.id === id)?.findings.map((f) => [f.code, f.file])).toEqual([
        ['io/outside-project', `.ulpi/runs/${id}.json`],
      ]);
    for (const id of ['link', 'passwd']) {
      for (const url of [
        '/api/runs',
        '/api/summaries',
        `/api/runs/ulpi/${id}`,
        `/api/runs/ulpi/${id}/page`,
        `/api/runs/ulpi/${id}/resume`,
        `/api/runs/ulpi/${id}/history`,
        `/runs/ulpi/${id}`,
        '/',
      ]) {
        const r = await get(url);
        expect(r.status, url).toBe(200);
        expectNothingFromOutside(url, r.body);
      }
      const raw = await get(`/api/raw?path=${encodeURIComponent(`.ulpi/runs/${id}.json`)}`);
      expect(raw.status).not.toBe(200);
      expectNothingFromOutside('/api/raw', raw.body);
    }
    // The run inside the project is read as before.
    expect(runs.runs.some((r) => r.id === 'add-oauth-20261129T071300Z')).toBe(true);
  });
});

describe('a symlink to a folder outside the project', () => {
  it('is a finding, and none of the files in that folder is read', async () => {
    const get = await serve(join(base, 'dirs'));
    const body = (await get('/api/runs')).body;
    expectNothingFromOutside('/api/runs', body);
    const runs = JSON.parse(body) as { runs: { id: string; findings: { code: string }[] }[] };
    expect(runs.runs.some((r) => r.id === 'dirlink')).toBe(false);
    expect(runs.runs.flatMap((r) => r.findings.map((f) => f.code))).toEqual(['io/outside-project']);
    for (const url of ['/api/summaries', '/']) expectNothingFromOutside(url, (await get(url)).body);
    const raw = await get(`/api/raw?path=${encodeURIComponent('.ulpi/runs/dirlink.json')}`);
    expect(raw.status).not.toBe(200);
    expectNothingFromOutside('/api/raw', raw.body);
  });
});
