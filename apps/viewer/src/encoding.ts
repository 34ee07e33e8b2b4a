// How a JSON body is compressed for a client: chosen on the server thread from Accept-Encoding the way
// @fastify/compress chooses (server.ts registers it for every other response), compressed where the body is built
// (the loader thread), so the server thread holds and sends only the compressed bytes: no copy of a 1.5 MB page
// of units as text, and one compression at a time instead of one stream per response in flight.
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';

/** The encodings the viewer compresses with, the preferred first (server.ts gives @fastify/compress the same). */
export const ENCODINGS = ['br', 'gzip', 'deflate'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Smaller bodies are sent as they are (@fastify/compress's `threshold` in server.ts). */
export const COMPRESS_THRESHOLD = 1024;

/** @fastify/compress's brotli settings (its recommended default: quality 4, not 11). */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * The encoding a request accepts, as @fastify/compress negotiates it (@fastify/accept-negotiator 2.1's parser, kept
 * to the character so every header gets the encoding it got before): `*` and `x-gzip` mean gzip, the highest
 * q-value wins, a tie goes to the earlier of `ENCODINGS`, q=0 refuses. None (no header, identity only, an
 * `x-no-compression` header, a HEAD request: fastify's HEAD routes never had their bodies compressed) means the body
 * goes as it is.
 */
export function acceptedEncoding(req: {
  readonly method: string;
  readonly headers: { readonly [name: string]: string | string[] | undefined };
}): Encoding | undefined {
  const header = req.headers['accept-encoding'];
  if (typeof header !== 'string' || req.headers['x-no-compression'] !== undefined || req.method !== 'GET')
    return undefined;
  const h = header.toLowerCase().replace(/\*|x-gzip/gu, 'gzip');
  let best: Encoding | undefined;
  let bestRank = Number.POSITIVE_INFINITY;
  let bestQ = 0;
  /** One token with its q-value; true when nothing can beat it (the first encoding at q=1). */
  const match = (token: string, q: number): boolean => {
    if (q === 0 || bestQ > q) return false;
    const rank = ENCODINGS.indexOf(token as Encoding);
    if (rank === -1) return false;
    if (rank === 0 && q === 1) {
      best = ENCODINGS[rank];
      return true;
    }
    if (bestQ < q || bestRank > rank) {
      best = ENCODINGS[rank];
      bestRank = rank;
      bestQ = q;
    }
    return false;
  };
  // States: before a token, in a token, in its parameters (only digits and dots are kept: the q-value), done.
  let state: 'begin' | 'token' | 'quality' = 'begin';
  let token = '';
  let quality = '';
  for (let i = 0; i < h.length; i++) {
    const c = h[i] as string;
    if (c === ' ' || c === '\t') continue;
    if (c === ';') {
      if (state === 'token') {
        state = 'quality';
        quality = '';
      }
      continue;
    }
    if (c === ',') {
      if (state === 'token') {
        if (match(token, 1)) return best;
        state = 'begin';
        token = '';
      } else if (state === 'quality') {
        if (match(token, Number.parseFloat(quality) || 0)) return best;
        state = 'begin';
        token = '';
        quality = '';
      }
      continue;
    }
    if (state === 'quality') {
      if (c === 'q' || c === '=') continue;
      if (c === '.' || (c >= '0' && c <= '9')) {
        quality += c;
        continue;
      }
    } else if (state === 'begin') {
      state = 'token';
      token += c;
      continue;
    }
    if (state === 'token') {
      const prev = h[i - 1];
      if (prev === ' ' || prev === '\t') token = '';
      token += c;
      continue;
    }
    if (match(token, Number.parseFloat(quality) || 0)) return best;
    state = 'begin';
    token = c;
    quality = '';
  }
  if (state === 'token') match(token, 1);
  else if (state === 'quality') match(token, Number.parseFloat(quality) || 0);
  return best;
}

/** A body's bytes in an encoding, with @fastify/compress's settings for it. */
export function compress(body: string, encoding: Encoding): Buffer {
  switch (encoding) {
    case 'br':
      return brotliCompressSync(body, BROTLI);
    case 'gzip':
      return gzipSync(body);
    case 'deflate':
      return deflateSync(body);
  }
}
