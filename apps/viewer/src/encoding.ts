// How a JSON body is compressed for a client: chosen on the server thread from Accept-Encoding the way
// @fastify/compress chooses (server.ts registers it for every other response), compressed where the body is built
// (the loader thread), so the server thread holds and sends only the compressed bytes: no copy of a 1.5 MB page
// of units as text, and one compression at a time instead of one stream per response in flight.
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';

/** The encodings the viewer compresses with, the preferred first (server.ts gives @fastify/compress the same). */
export const ENCODINGS = ['br', 'gzip', 'deflate'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Smaller bodies are sent as they are (@fastify/compress's `threshold` in server.ts). */
export const COMPRESS_THRESHOLD = 1024;

/** @fastify/compress's brotli settings (its recommended default: quality 4, not 11). */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * The encoding a request accepts, negotiated as @fastify/compress negotiates it: the same parser
 * (@fastify/accept-negotiator), with `*` and `x-gzip` read as gzip first, so every header gets the encoding it got
 * before. None (no header, identity only, an `x-no-compression` header, a HEAD request: fastify's HEAD routes never had
 * their bodies compressed) means the body goes as it is.
 */
export function acceptedEncoding(req: {
  readonly method: string;
  readonly headers: { readonly [name: string]: string | string[] | undefined };
}): Encoding | undefined {
  const header = req.headers['accept-encoding'];
  if (typeof header !== 'string' || req.headers['x-no-compression'] !== undefined || req.method !== 'GET')
    return undefined;
  return negotiate(header.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'), [...ENCODINGS]) ?? undefined;
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
