import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, createViewer, startViewer, type Viewer } from '../src/index.js';
import { bigRun } from './helpers.js';

// A project holding one run whose sources include a symlink out of the project, a symlinked directory, and a
// real file; plus an outside file and an unlisted file inside.
let base: string;
let project: string;
let viewer: Viewer;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'ckpt-sec-'));
  project = join(base, 'project');
  mkdirSync(join(project, 'runs'), { recursive: true });
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(base, 'outside/secret.json'), '{"secret": true}\n');
  writeFileSync(join(project, 'runs/ok.json'), '{"ok": true}\n');
  writeFileSync(join(project, 'unlisted.json'), '{"unlisted": true}\n');
  symlinkSync(join(base, 'outside/secret.json'), join(project, 'runs/link.json'));
  symlinkSync(join(base, 'outside'), join(project, 'runs/linkdir'));
  symlinkSync(join(project, 'runs/ok.json'), join(project, 'runs/inner-link.json'));
  const sources = [
    'runs/ok.json',
    'runs/link.json',
    'runs/linkdir/secret.json',
    'runs/inner-link.json',
    '../outside/secret.json',
    '/etc/passwd',
  ].map((path) => ({ path, kind: 'test' }));
  viewer = await createViewer({ dir: project, watch: false, load: () => [bigRun(3, 1, { sources })] });
});
afterAll(async () => {
  await viewer.close();
  rmSync(base, { recursive: true, force: true });
});

const get = (url: string) => viewer.app.inject({ method: 'GET', url });
const raw = (p: string) => get(`/api/raw?path=${encodeURIComponent(p)}`);

describe('methods', () => {
  it('should refuse every method but GET and HEAD with 405, on known and unknown paths', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const) {
      for (const url of ['/', '/api/runs', '/api/raw?path=runs/ok.json', '/nowhere']) {
        const res = await viewer.app.inject({
          method,
          url,
          payload: method === 'OPTIONS' ? undefined : '{}',
        });
        expect(res.statusCode, `${method} ${url}`).toBe(405);
        expect(res.headers.allow).toBe('GET, HEAD');
      }
    }
    expect((await viewer.app.inject({ method: 'HEAD', url: '/api/runs' })).statusCode).toBe(200);
  });
});

describe('path traversal and symlinks', () => {
  it('should serve a listed file inside the project, also through a symlink that stays inside', async () => {
    expect((await raw('runs/ok.json')).body).toBe('{"ok": true}\n');
    expect((await raw('runs/inner-link.json')).statusCode).toBe(200);
  });

  it('should refuse symlinks and paths that lead outside the project', async () => {
    for (const p of ['runs/link.json', 'runs/linkdir/secret.json', '../outside/secret.json', '/etc/passwd']) {
      const res = await raw(p);
      expect(res.statusCode, p).toBe(403);
      expect(res.body).not.toContain('secret": true');
    }
  });

  it('should refuse files no run lists, and encoded traversal anywhere', async () => {
    expect((await raw('unlisted.json')).statusCode).toBe(404);
    expect((await raw('runs/../unlisted.json')).statusCode).toBe(404);
    for (const url of [
      '/static/..%2Fpackage.json',
      '/static/%2e%2e%2fsrc%2findex.ts',
      '/../package.json',
      '/static/../package.json',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('"name"');
    }
  });
});

describe('headers', () => {
  it('should send a CSP without inline script or style on every response', async () => {
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    for (const url of ['/', '/api/runs', '/nowhere', '/static/app.js', '/api/raw?path=runs/ok.json']) {
      const res = await get(url);
      expect(res.headers['content-security-policy'], url).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('should keep the HTML shell free of inline scripts, styles and handlers', async () => {
    const body = (await get('/runs/ulpi/big-3')).body;
    expect(body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(body).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
  });
});

describe('escaping', () => {
  it('should escape a hostile run id in the page shell', async () => {
    const id = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';
    const body = (await get(`/runs/team/${encodeURIComponent(id)}`)).body;
    expect(body).not.toContain('<script>alert');
    expect(body).not.toContain('<img src=x');
    expect(body).toContain(
      '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;',
    );
  });

  it('should serve a raw file holding HTML as text, never as HTML', async () => {
    writeFileSync(join(project, 'runs/ok.json'), '{"x": "<script>alert(1)</script>"}\n');
    const res = await raw('runs/ok.json');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  });
});

describe('Host header', () => {
  it('should refuse foreign Host headers when serving on loopback (DNS rebinding)', async () => {
    const v = await startViewer({ dir: project, port: 0, watch: false, load: () => [] });
    try {
      const ok = await fetch(v.url);
      expect(ok.status).toBe(200);
      const evil = await v.app.inject({
        method: 'GET',
        url: '/api/runs',
        headers: { host: 'evil.example:80' },
      });
      expect(evil.statusCode).toBe(421);
    } finally {
      await v.close();
    }
  });
});
