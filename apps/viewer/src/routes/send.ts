import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Query } from '../answer.js';
import { acceptedEncoding } from '../encoding.js';
import type { CachedBody, ProjectState, Reply } from '../project.js';

/**
 * Sends a cached JSON body, or 304 when the client already holds it (live refresh re-asks often). A body already
 * compressed for this client goes with the headers @fastify/compress gives the bodies it compresses (Vary,
 * Content-Encoding), which then leaves it as it is.
 */
export function sendJson(req: FastifyRequest, reply: FastifyReply, cached: CachedBody) {
  reply.header('etag', cached.etag).type('application/json; charset=utf-8');
  const inm = req.headers['if-none-match'];
  if (inm?.split(',').some((t) => t.trim() === cached.etag)) return reply.code(304).send();
  if ('body' in cached) return reply.send(cached.body);
  varyOnEncoding(reply);
  reply.header('content-encoding', cached.encoding);
  const { buffer, byteOffset, byteLength } = cached.encoded;
  return reply.send(Buffer.from(buffer, byteOffset, byteLength));
}

/** `Vary: accept-encoding`, added to a Vary already set (as @fastify/compress does). */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) {
    reply.header('vary', 'accept-encoding');
    return;
  }
  const values = (Array.isArray(vary) ? vary : [vary]).map(String);
  if (!values.some((v) => v.includes('accept-encoding')))
    reply.header('vary', [...values, 'accept-encoding'].join(', '));
}

/** A JSON error body with a status code. */
export function sendError(reply: FastifyReply, code: number, error: string) {
  return reply.code(code).type('application/json; charset=utf-8').send(JSON.stringify({ error }));
}

/** A body from `ProjectState.query`, or its error. */
function sendReply(req: FastifyRequest, reply: FastifyReply, r: Reply) {
  return 'etag' in r ? sendJson(req, reply, r) : sendError(reply, r.status, r.error);
}

/** Answers a request with the body `q` asks for, compressed as the request accepts (`acceptedEncoding`), or its error. */
export async function sendQuery(req: FastifyRequest, reply: FastifyReply, project: ProjectState, q: Query) {
  return sendReply(req, reply, await project.query(q, acceptedEncoding(req)));
}
