import type { FastifyInstance } from 'fastify';
import type { ProjectState } from '../project.js';

/** Keeps proxies and the browser from dropping an idle stream. */
const HEARTBEAT_MS = 25_000;

/**
 * `GET /api/events`: server-sent events. `hello` on connect, then `change` (data: the project version) after
 * each burst of file changes; clients re-fetch what they show, with ETags so unchanged documents cost a 304.
 */
export function registerEventRoutes(app: FastifyInstance, project: ProjectState): void {
  app.get('/api/events', (req, reply) => {
    const headers = {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    };
    if (req.method === 'HEAD') return reply.headers(headers).send();
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { ...headers, ...(reply.getHeaders() as Record<string, string>) });
    res.write(`retry: 1000\nevent: hello\ndata: ${project.version}\n\n`);
    const off = project.onChange((v) => res.write(`event: change\ndata: ${v}\n\n`));
    const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const end = () => {
      off();
      clearInterval(beat);
    };
    req.raw.on('close', end);
    res.on('error', end);
  });
}
