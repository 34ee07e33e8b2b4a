import { request } from 'node:http';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createViewer,
  RemoteBindError,
  type StartedViewer,
  startViewer,
  tokenCookieName,
  type Viewer,
} from '../src/index.js';
import { CHROMIUM_ARGS, chromiumPath, samplePath } from './helpers.js';

// A viewer serving other machines: explicit --allow-remote, a Host allow-list, and an access token on every request.
const TOKEN = 'test-token-0123456789abcdef';
let viewer: Viewer;

beforeAll(async () => {
  viewer = await createViewer({
    dir: samplePath,
    watch: false,
    allowedHosts: ['devbox.lan', '10.0.0.7'],
    token: TOKEN,
  });
});
afterAll(async () => {
  await viewer.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  viewer.app.inject({ method: 'GET', url, headers: { host: 'devbox.lan:4173', ...headers } });
const cookie = `${tokenCookieName(TOKEN)}=${TOKEN}`;

describe('binding to an address other than loopback', () => {
  it('should refuse a host other than loopback without allowRemote, before listening', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20'])
      await expect(startViewer({ dir: samplePath, host, port: 0, watch: false })).rejects.toBeInstanceOf(
        RemoteBindError,
      );
  });

  it('should listen with allowRemote, print a URL carrying a random token and keep the Host check on', async () => {
    const started: StartedViewer = await startViewer({
      dir: samplePath,
      host: '0.0.0.0',
      port: 0,
      watch: false,
      allowRemote: true,
      allowedHosts: ['devbox.lan'],
    });
    try {
      expect(started.remote).toBe(true);
      expect(started.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(started.url).toBe(`http://127.0.0.1:${started.port}/?token=${started.token}`);
      expect(started.allowedHosts).toEqual(expect.arrayContaining(['127.0.0.1', 'localhost', 'devbox.lan']));
      // Over real HTTP: a first load with the token answers a cookie and a redirect without the token.
      const first = await httpGet(started.port, `/?token=${started.token}`, { host: 'devbox.lan' });
      expect(first.status).toBe(303);
      expect(first.headers.location).toBe('/');
      const set = String(first.headers['set-cookie']);
      expect(set).toContain(`${tokenCookieName(started.token!)}=${started.token}`);
      expect(set).toMatch(/HttpOnly/);
      expect(set).toMatch(/SameSite=Strict/);
      const page = await httpGet(started.port, '/', { host: 'devbox.lan', cookie: set.split(';')[0]! });
      expect(page.status).toBe(200);
      expect((await httpGet(started.port, '/', { host: 'evil.example' })).status).toBe(421);
      expect((await httpGet(started.port, '/api/runs', { host: 'devbox.lan' })).status).toBe(401);
    } finally {
      await started.close();
    }
    // Two viewers get two tokens.
    const other = await startViewer({
      dir: samplePath,
      host: '0.0.0.0',
      port: 0,
      watch: false,
      allowRemote: true,
    });
    try {
      expect(other.token).toBeDefined();
      expect(other.token).not.toBe(started.token);
    } finally {
      await other.close();
    }
  });

  it('should stay without a token on loopback', async () => {
    const local = await startViewer({ dir: samplePath, port: 0, watch: false });
    try {
      expect(local.remote).toBe(false);
      expect(local.token).toBeUndefined();
      expect(local.url).toBe(`http://127.0.0.1:${local.port}/`);
    } finally {
      await local.close();
    }
  });
});

describe('Host allow-list', () => {
  it('should answer the allowed names and loopback, any port, and refuse others with 421', async () => {
    for (const host of [
      'devbox.lan',
      'DEVBOX.LAN:80',
      '10.0.0.7:4173',
      '127.0.0.1:4173',
      'localhost',
      '[::1]:1',
    ])
      expect((await get('/api/runs', { host, cookie })).statusCode, host).toBe(200);
    for (const host of ['evil.example', 'devbox.lan.evil.example', '10.0.0.8', 'devbox'])
      expect((await get('/api/runs', { host, cookie })).statusCode, host).toBe(421);
  });
});

describe('access token', () => {
  it('should refuse every route without the token (401) and with a wrong one (403)', async () => {
    for (const url of [
      '/',
      '/api/runs',
      '/api/summaries',
      '/static/app.js',
      '/static/favicon.svg',
      '/nowhere',
    ]) {
      const none = await get(url);
      expect(none.statusCode, url).toBe(401);
      expect(none.body).not.toContain('add-oauth');
      expect((await get(url, { cookie: `${tokenCookieName(TOKEN)}=wrong` })).statusCode, url).toBe(403);
      expect((await get(`${url}${url.includes('?') ? '&' : '?'}token=wrong`)).statusCode, url).toBe(403);
      expect((await get(url, { authorization: 'Bearer wrong' })).statusCode, url).toBe(403);
    }
    // Another viewer's cookie name does not count.
    expect((await get('/api/runs', { cookie: `ckpt_token_000000000000=${TOKEN}` })).statusCode).toBe(401);
  });

  it('should accept the token as a cookie or a bearer header, and turn ?token= into a cookie', async () => {
    expect((await get('/api/runs', { cookie: `other=1; ${cookie}` })).statusCode).toBe(200);
    expect((await get('/api/summaries', { authorization: `Bearer ${TOKEN}` })).statusCode).toBe(200);
    const first = await get(`/runs/ulpi/x?token=${TOKEN}&a=1`);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('/runs/ulpi/x?a=1');
    expect(String(first.headers['set-cookie'])).toBe(`${cookie}; Path=/; HttpOnly; SameSite=Strict`);
  });
});

describe('in a browser', () => {
  it('should open from the printed URL (token to cookie), stay live, and show nothing to a browser without it', async () => {
    const v = await startViewer({
      dir: samplePath,
      host: '0.0.0.0',
      port: 0,
      watch: false,
      allowRemote: true,
    });
    const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      const statuses: number[] = [];
      page.on('response', (r) => statuses.push(r.status()));
      await page.goto(v.url);
      await page.waitForSelector('body[data-rendered] .run-row');
      await page.waitForSelector('#live.on');
      // The token left the address bar; every request after the first carried the cookie (no 401/403).
      expect(page.url()).toBe(v.url.replace(/\?token=.*$/, ''));
      expect(statuses.filter((s) => s === 401 || s === 403)).toEqual([]);
      const cookies = await context.cookies();
      expect(cookies).toEqual([
        expect.objectContaining({ name: tokenCookieName(v.token!), httpOnly: true, sameSite: 'Strict' }),
      ]);
      // The page's script cannot read the HttpOnly cookie.
      expect(await page.evaluate(() => document.cookie)).toBe('');
      const stranger = await browser.newPage();
      const res = await stranger.goto(v.url.replace(/\?token=.*$/, ''));
      expect(res?.status()).toBe(401);
      expect(await stranger.locator('.run-row').count()).toBe(0);
      const wrong = await stranger.goto(`${v.url.replace(/\?token=.*$/, '')}?token=nope`);
      expect(wrong?.status()).toBe(403);
    } finally {
      await browser.close();
      await v.close();
    }
  });
});

function httpGet(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', fail);
    req.end();
  });
}
