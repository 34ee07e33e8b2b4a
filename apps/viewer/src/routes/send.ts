import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedBody, Reply } from '../project.js';

/** Sends a cached JSON body, or 304 when the client already holds it (live refresh re-asks often). */
export function sendJson(req: FastifyRequest, reply: FastifyReply, cached: CachedBody) {
  reply.header('etag', cached.etag).type('application/json; charset=utf-8');
  const inm = req.headers['if-none-match'];
  if (inm?.split(',').some((t) => t.trim() === cached.etag)) return reply.code(304).send();
  return reply.send(cached.body);
}

/** A JSON error body with a status code. */
export function sendError(reply: FastifyReply, code: number, error: string) {
  return reply.code(code).type('application/json; charset=utf-8').send(JSON.stringify({ error }));
}

/** A body from `ProjectState.query`, or its error. */
export function sendReply(req: FastifyRequest, reply: FastifyReply, r: Reply) {
  return 'body' in r ? sendJson(req, reply, r) : sendError(reply, r.status, r.error);
}
