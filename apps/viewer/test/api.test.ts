import {
  loadProject,
  RUN_VIEW_FORMAT_VERSION,
  resumeDocument,
  runDocument,
  runsDocument,
  triageOrder,
} from '@ckpt/core';
import { describe, expect, it } from 'vitest';
import { samplePath, sampleViewer } from './helpers.js';

const { viewer, get } = sampleViewer();

describe('GET /api/runs', () => {
  it('should return the same RunViews document core builds for `ckpt status --json`', async () => {
    const res = await get('/api/runs');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const doc = res.json();
    expect(doc.formatVersion).toBe(RUN_VIEW_FORMAT_VERSION);
    expect(doc).toEqual(JSON.parse(JSON.stringify(runsDocument(loadProject(samplePath)))));
    expect(doc.runs.length).toBeGreaterThan(0);
  });

  it('should answer 304 to a client that holds the current document', async () => {
    const first = await get('/api/runs');
    const again = await get('/api/runs', { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });
});

describe('GET /api/runs/:dialect/:id', () => {
  it('should return each run and its resume plan as core documents', async () => {
    const runs = loadProject(samplePath);
    const oneEach = [...new Map(runs.map((r) => [r.dialect, r])).values()];
    for (const run of oneEach) {
      const base = `/api/runs/${encodeURIComponent(run.dialect)}/${encodeURIComponent(run.id)}`;
      expect((await get(base)).json()).toEqual(JSON.parse(JSON.stringify(runDocument(run))));
      expect((await get(`${base}/resume`)).json()).toEqual(JSON.parse(JSON.stringify(resumeDocument(run))));
    }
  });

  it('should answer 404 with a JSON error for an unknown run', async () => {
    const res = await get('/api/runs/team/no-such-run');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toContain('no-such-run');
  });
});

describe('GET /api/runs/:dialect/:id/page, /units/:unit and /sources', () => {
  it('should serve the page a slim run and each unit and the files in full', async () => {
    const runs = loadProject(samplePath);
    for (const run of [...new Map(runs.map((r) => [r.dialect, r])).values()]) {
      const base = `/api/runs/${encodeURIComponent(run.dialect)}/${encodeURIComponent(run.id)}`;
      const full = JSON.parse(JSON.stringify(runDocument(run))).run;
      const page = (await get(`${base}/page`)).json().run;
      expect(page.units.map((u: { id: string }) => u.id)).toEqual(
        full.units.map((u: { id: string }) => u.id),
      );
      expect(page.sourcesTotal).toBe(full.sources.length);
      expect(page.findings).toEqual(full.findings);
      expect(page.resume).toEqual(full.resume);
      for (const [i, u] of page.units.entries()) {
        expect(u.slim).toBe(true);
        expect(u.attempts.length).toBe(full.units[i].attempts.length);
        expect(u.attempts.every((a: object) => !('sources' in a) && !('evidence' in a))).toBe(true);
        const one = await get(`${base}/units/${encodeURIComponent(u.id)}`);
        expect(one.json().unit).toEqual(full.units[i]);
      }
      expect((await get(`${base}/sources`)).json().sources).toEqual(full.sources);
    }
  });

  it('should answer 404 for an unknown unit', async () => {
    const run = loadProject(samplePath)[0]!;
    const res = await get(`/api/runs/${run.dialect}/${encodeURIComponent(run.id)}/units/no-such-unit`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toContain('no-such-unit');
  });
});

describe('GET /api/summaries', () => {
  it('should list every run with counts, tones and problems, without units', async () => {
    const doc = (await get('/api/summaries')).json();
    // In triage order: the runs that need a person first (core's compareForTriage).
    const runs = triageOrder(loadProject(samplePath));
    expect(doc.runs.map((r: { id: string }) => r.id)).toEqual(runs.map((r) => r.id));
    for (const s of doc.runs) {
      expect(s.units).toBeUndefined();
      expect(Object.keys(s.tones).sort()).toEqual(Object.keys(s.counts).sort());
    }
  });
});

describe('GET /api/raw', () => {
  it('should serve a source file of a run as text/plain', async () => {
    const run = loadProject(samplePath)[0]!;
    const src = run.sources[0]!.path;
    const res = await get(`/api/raw?path=${encodeURIComponent(src)}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body.length).toBeGreaterThan(0);
  });
});

describe('pages', () => {
  it('should serve the runs page, a run page and a raw page as HTML shells', async () => {
    const run = loadProject(samplePath)[0]!;
    for (const url of ['/', `/runs/${run.dialect}/${encodeURIComponent(run.id)}`, '/raw?path=x']) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<script type="module" src="/static/app.js"></script>');
    }
    expect((await get('/runs/team/missing')).statusCode).toBe(404);
  });

  it('should name every module the client imports, at any depth, as a modulepreload of the shell', async () => {
    const body = (await get('/')).body;
    const preloaded = [...body.matchAll(/<link rel="modulepreload" href="\/static\/([\w.-]+)">/g)].map(
      (m) => m[1],
    );
    // One level down (run-page.js), deeper (run-units.js -> vlist.js -> pace.js) and the vendored graph layout.
    expect(preloaded).toEqual(
      expect.arrayContaining(['run-page.js', 'run-units.js', 'vlist.js', 'pace.js', 'dagre.js']),
    );
    expect(preloaded).not.toContain('app.js'); // the page's script itself
    expect(new Set(preloaded).size).toBe(preloaded.length);
    for (const name of preloaded) expect((await get(`/static/${name}`)).statusCode).toBe(200);
    // Nothing the client imports is left to a second round trip: every sibling import of a served module is named.
    for (const name of ['app.js', ...preloaded]) {
      const src = (await get(`/static/${name}`)).body;
      for (const m of src.matchAll(/^import\s(?:[^;]*?\sfrom\s)?'\.\/([\w.-]+\.js)';/gm))
        expect([...preloaded, 'app.js']).toContain(m[1]);
    }
  });

  it('should serve the client files and nothing else under /static', async () => {
    expect((await get('/static/app.js')).headers['content-type']).toMatch(/^text\/javascript/);
    expect((await get('/static/app.css')).headers['content-type']).toMatch(/^text\/css/);
    expect((await get('/static/nope.js')).statusCode).toBe(404);
  });
});

describe('GET /api/events', () => {
  it('should answer HEAD with the event-stream type', async () => {
    const res = await viewer().app.inject({ method: 'HEAD', url: '/api/events' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
  });
});
