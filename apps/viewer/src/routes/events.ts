import type { FastifyInstance } from 'fastify';
import type { ChangeEvent, ProjectEvent, ProjectState } from '../project.js';

/** Keeps proxies and the browser from dropping an idle stream. */
const HEARTBEAT_MS = 25_000;
/** More runs changed than this in one load: clients are told "everything" rather than sent the list. */
const MAX_DELTAS = 200;

/** The `change` event's data: the version and which runs (and units) changed, or `full` for a large burst. */
export function changeData(change: ChangeEvent): string {
  return JSON.stringify(
    change.deltas.length > MAX_DELTAS
      ? { version: change.version, full: true, deltas: [] }
      : { version: change.version, deltas: change.deltas },
  );
}

/**
 * `GET /api/events`: server-sent events. `hello` on connect (data: `{ version, progress }`), `progress` while the
 * first load runs and once when it ends, then `change` after each load that changed something (data:
 * `{ version, deltas: [{ key: "<dialect>/<id>", kind: "added"|"changed"|"removed", units?, unitsRemoved? }] }`);
 * clients re-fetch only what a delta names. The browser shares one stream among its tabs (static/live.js).
 *
 * `GET /api/progress`: the same progress as JSON.
 */
export function registerEventRoutes(app: FastifyInstance, project: ProjectState): void {
  app.get('/api/progress', (_req, reply) =>
    reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(JSON.stringify(project.progress())),
  );

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
    const hello = { version: project.version, progress: project.progress() };
    res.write(`retry: 1000\nevent: hello\ndata: ${JSON.stringify(hello)}\n\n`);
    const off = project.onChange((ev: ProjectEvent) => {
      if (ev.type === 'change') res.write(`event: change\ndata: ${changeData(ev.change)}\n\n`);
      else res.write(`event: progress\ndata: ${JSON.stringify(ev.progress)}\n\n`);
    });
    const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const end = () => {
      off();
      clearInterval(beat);
    };
    req.raw.on('close', end);
    res.on('error', end);
  });
}
