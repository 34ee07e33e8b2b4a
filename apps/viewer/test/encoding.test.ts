import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptedEncoding } from '../src/encoding.js';
import { sampleViewer } from './helpers.js';

const accepts = (header: string | undefined, extra: Record<string, string> = {}, method = 'GET') =>
  acceptedEncoding({
    method,
    headers: { ...(header !== undefined ? { 'accept-encoding': header } : {}), ...extra },
  });

describe('acceptedEncoding (as @fastify/compress negotiates)', () => {
  it('should prefer br, then gzip, then deflate at equal q, and the highest q otherwise', () => {
    expect(accepts('gzip, deflate, br, zstd')).toBe('br'); // what Chromium sends, even on 127.0.0.1
    expect(accepts('deflate, gzip')).toBe('gzip');
    expect(accepts('gzip;q=0.5, br;q=0.4')).toBe('gzip');
    expect(accepts('br ;q=1.0, gzip')).toBe('br');
    expect(accepts('gzip;q=0, deflate')).toBe('deflate');
  });

  it('should read * and x-gzip as gzip', () => {
    expect(accepts('*')).toBe('gzip');
    expect(accepts('x-gzip')).toBe('gzip');
  });

  it('should leave the body as it is without a usable encoding, with x-no-compression, and for HEAD', () => {
    expect(accepts(undefined)).toBeUndefined();
    expect(accepts('identity')).toBeUndefined();
    expect(accepts('zstd')).toBeUndefined();
    expect(accepts('br;q=0')).toBeUndefined();
    expect(accepts('')).toBeUndefined();
    expect(accepts('gzip', { 'x-no-compression': '1' })).toBeUndefined();
    expect(accepts('gzip', {}, 'HEAD')).toBeUndefined();
  });
});

describe('JSON bodies compressed where they are built', () => {
  const { get } = sampleViewer();
  const decode = { br: brotliDecompressSync, gzip: gunzipSync, deflate: inflateSync } as const;

  it('should send the same text in each encoding, with Vary, Content-Encoding, Content-Length and one ETag', async () => {
    for (const url of ['/api/runs', '/api/summaries']) {
      const plain = await get(url, { 'accept-encoding': 'identity' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBeUndefined();
      for (const enc of ['br', 'gzip', 'deflate'] as const) {
        // Twice: the second answer is the kept one.
        for (let i = 0; i < 2; i++) {
          const res = await get(url, { 'accept-encoding': enc });
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-encoding']).toBe(enc);
          expect(res.headers.vary).toBe('accept-encoding');
          expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
          expect(res.headers.etag).toBe(plain.headers.etag);
          expect(decode[enc](res.rawPayload).toString()).toBe(plain.body);
        }
      }
      const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': String(plain.headers.etag) });
      expect(again.statusCode).toBe(304);
      expect(again.headers['content-encoding']).toBeUndefined();
      expect(again.body).toBe('');
    }
  });

  it('should send a body under 1 KB as it is, and errors as before', async () => {
    const tiny = await get('/api/runs/team/nope/page', { 'accept-encoding': 'br' });
    expect(tiny.statusCode).toBe(404);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    const summaries = (await get('/api/summaries')).json() as { runs: { dialect: string; id: string }[] };
    const run = summaries.runs[0];
    expect(run).toBeDefined();
    const base = `/api/runs/${run?.dialect}/${encodeURIComponent(run?.id ?? '')}`;
    const one = await get(`${base}/units?offset=0&limit=1`, { 'accept-encoding': 'br' });
    const plain = await get(`${base}/units?offset=0&limit=1`, { 'accept-encoding': 'identity' });
    expect(one.statusCode).toBe(200);
    if (plain.rawPayload.length < 1024) {
      expect(one.headers['content-encoding']).toBeUndefined();
      expect(one.body).toBe(plain.body);
    } else expect(brotliDecompressSync(one.rawPayload).toString()).toBe(plain.body);
  });
});
