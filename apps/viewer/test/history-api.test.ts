import { loadProject } from '@ckpt/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createViewer, type Viewer } from '../src/server.js';
import { samplePath } from './helpers.js';

/** The fields of the documents these tests read. */
interface Doc {
  readonly unit?: string;
  readonly total?: number;
  readonly kinds: Readonly<Record<string, number>>;
  readonly entries: readonly { readonly kind: string }[];
  readonly shape?: string;
  readonly unknown?: readonly string[];
  readonly fromHistory?: number;
  readonly rows: readonly { readonly id: string }[];
}

let viewer: Viewer;
const get = async (url: string) => {
  const r = await viewer.app.inject({ url });
  return { status: r.statusCode, body: r.json() as Doc, headers: r.headers, text: r.body };
};
const OAUTH = '/api/runs/ulpi/add-oauth-20261129T071300Z';

beforeAll(async () => {
  viewer = await createViewer({ dir: samplePath, watch: false });
});
afterAll(() => viewer?.close());

describe('GET /api/runs/<dialect>/<id>/history', () => {
  it("should serve a unit's history by the unit's index, and a page of the run's with the total", async () => {
    const run = loadProject(samplePath).find((r) => r.id === 'add-oauth-20261129T071300Z')!;
    const i = run.units.findIndex((u) => u.id === 'oauth-config');
    const one = await get(`${OAUTH}/history?unit=${i}`);
    expect(one.status).toBe(200);
    expect(one.body.unit).toBe('oauth-config');
    expect(one.body.entries.map((e) => e.kind)).toEqual(['created', 'started', 'finished']);
    const all = await get(`${OAUTH}/history`);
    const page = await get(`${OAUTH}/history?offset=2&limit=3`);
    expect(page.body.total).toBe(all.body.entries.length);
    expect(page.body.entries).toEqual(all.body.entries.slice(2, 5));
    const kinds = await get(`${OAUTH}/history?kinds=started,finished&limit=2`);
    expect(kinds.body.total).toBe((all.body.kinds.started ?? 0) + (all.body.kinds.finished ?? 0));
    expect(kinds.body.entries).toHaveLength(2);
    expect(kinds.body.kinds).toEqual(all.body.kinds);
  });

  it('should refuse an unknown kind, a bad page and a unit that is not there', async () => {
    expect((await get(`${OAUTH}/history?kinds=started,nope`)).status).toBe(400);
    expect((await get(`${OAUTH}/history?limit=-1`)).status).toBe(400);
    expect((await get(`${OAUTH}/history?unit=99`)).status).toBe(404);
    expect((await get(`${OAUTH}/history?unit=oauth-config`)).status).toBe(404);
    expect((await get('/api/runs/ulpi/no-such-run/history')).status).toBe(404);
  });
});

describe('GET /graph, /timeline and the layout library', () => {
  it("should serve the run's graph and timeline documents with entity tags", async () => {
    const g = await get(`${OAUTH}/graph`);
    expect(g.body.shape).toBe('dependencies');
    expect(g.body.unknown).toEqual(['login-page']);
    const again = await viewer.app.inject({
      url: `${OAUTH}/graph`,
      headers: { 'if-none-match': String(g.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const t = await get('/api/runs/resumable/hotfix-login-throttle-20261129T071500Z/timeline');
    expect(t.body.fromHistory).toBe(4);
    expect(t.body.rows.map((r) => r.id)).toEqual(['S1', 'S2', 'S3', 'S4']);
  });

  it('should serve dagre from its own static files as an ES module, with its license and no source map', async () => {
    const r = await viewer.app.inject({ url: '/static/dagre.js' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/javascript/);
    expect(r.body).toMatch(/export\s*\{/);
    expect(r.body).toContain('Copyright (c) 2012-2014 Chris Pettitt');
    expect(r.body).not.toContain('sourceMappingURL');
  });
});
