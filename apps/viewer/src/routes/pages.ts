import { basename, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { layout } from '../pages/layout.js';
import type { ProjectState } from '../project.js';

/**
 * The pages: `/` (every run), `/runs/<dialect>/<id>` (one run) and `/raw?path=<file>` (a source file with line
 * numbers). Each is a shell the client fills from the JSON API; deep links to units and findings are fragments.
 */
export function registerPageRoutes(
  app: FastifyInstance,
  project: ProjectState,
  modules: readonly string[],
): void {
  const name = basename(resolve(project.dir)) || project.dir;
  const send = (reply: import('fastify').FastifyReply, body: string, code = 200) =>
    reply.code(code).type('text/html; charset=utf-8').send(body);

  app.get('/', (_req, reply) =>
    send(reply, layout({ page: 'runs', title: `Runs of ${name}`, project: name, modules })),
  );

  app.get<{ Params: { dialect: string; id: string } }>('/runs/:dialect/:id', (req, reply) => {
    const { dialect, id } = req.params;
    // While the first load runs, every run may exist: the page shows the load's progress (live: loading).
    const known = !project.isReady || project.get(dialect, id) !== undefined;
    // An unknown run still gets the shell (with 404): it may appear live, and the page says so.
    return send(
      reply,
      layout({ page: 'run', title: `${id} (${dialect})`, project: name, modules, data: { dialect, id } }),
      known ? 200 : 404,
    );
  });

  app.get<{ Querystring: { path?: string } }>('/raw', (req, reply) => {
    const path = typeof req.query.path === 'string' ? req.query.path : '';
    return send(
      reply,
      layout({ page: 'raw', title: path || 'raw file', project: name, modules, data: { path } }),
    );
  });
}
