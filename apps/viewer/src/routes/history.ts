import type { FastifyInstance } from 'fastify';
import type { HistoryQuery } from '../answer.js';
import type { ProjectState } from '../project.js';
import { sendQuery } from './send.js';

interface RunParams {
  dialect: string;
  id: string;
}

/**
 * A run's shape and story: `/history` (every event, from the files, oldest first; `?unit=<index>` one unit's,
 * `?kinds=a,b` some kinds, `?offset=&limit=` a page of them), `/graph` (dependencies with the resume plan on
 * them), `/timeline` (the Gantt's rows). Built where the runs are (answer.ts).
 */
export function registerHistoryRoutes(app: FastifyInstance, project: ProjectState): void {
  app.get<{ Params: RunParams; Querystring: HistoryQuery }>('/api/runs/:dialect/:id/history', (req, reply) =>
    sendQuery(req, reply, project, { kind: 'history', ...req.params, query: { ...req.query } }),
  );
  for (const kind of ['graph', 'timeline'] as const)
    app.get<{ Params: RunParams }>(`/api/runs/:dialect/:id/${kind}`, (req, reply) =>
      sendQuery(req, reply, project, { kind, ...req.params }),
    );
}
