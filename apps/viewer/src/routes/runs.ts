import type { FastifyInstance } from 'fastify';
import type { PageQuery, Query } from '../answer.js';
import type { ProjectState } from '../project.js';
import { sendQuery } from './send.js';

interface RunParams {
  dialect: string;
  id: string;
}

/**
 * The JSON API: the same versioned documents `ckpt status --json` and `ckpt resume --json` print, built by the
 * same core functions from the same `loadProject` (on the loader thread, where the runs are: answer.ts).
 */
export function registerRunRoutes(app: FastifyInstance, project: ProjectState): void {
  const serve = (kind: Extract<Query, { query?: unknown }>['kind']) =>
    app.get<{ Params: RunParams; Querystring: PageQuery & { index?: string } }>(
      `/api/runs/:dialect/:id${kind === 'run' ? '' : kind === 'unitAt' ? '/unit' : `/${kind}`}`,
      (req, reply) => sendQuery(req, reply, project, { kind, ...req.params, query: req.query }),
    );

  app.get('/api/runs', (req, reply) => sendQuery(req, reply, project, { kind: 'runs' }));
  app.get('/api/summaries', (req, reply) => sendQuery(req, reply, project, { kind: 'summaries' }));
  for (const kind of ['run', 'resume', 'page', 'units', 'findings', 'sources', 'unitAt'] as const)
    serve(kind);
  // One unit in full: not cached (one unit is small, and caching every opened unit would keep a second copy).
  app.get<{ Params: RunParams & { unit: string } }>('/api/runs/:dialect/:id/units/:unit', (req, reply) => {
    const { dialect, id, unit } = req.params;
    return sendQuery(req, reply, project, { kind: 'unit', dialect, id, unit });
  });

  app.get('/api/', (_req, reply) =>
    reply.type('application/json; charset=utf-8').send({
      endpoints: {
        '/api/runs': 'every run, as `ckpt status --json` prints it',
        '/api/summaries': 'one-line facts of every run (the runs page)',
        '/api/runs/<dialect>/<id>': 'one run, as `ckpt status --run <id> --json` prints it',
        '/api/runs/<dialect>/<id>/page?units=<n>':
          'the run page: header facts, counts, the first n slim units (default 100), the first findings, files and plan items, with totals',
        '/api/runs/<dialect>/<id>/units?offset=<n>&limit=<n>':
          'slim units, a page at a time (or ?id=<unit>&id=...)',
        '/api/runs/<dialect>/<id>/findings?offset=<n>&limit=<n>': 'findings, a page at a time',
        '/api/runs/<dialect>/<id>/units/<unit>': 'one unit in full, with every attempt',
        '/api/runs/<dialect>/<id>/unit?index=<n>': 'one unit in full by its index in the run (any id length)',
        '/api/runs/<dialect>/<id>/sources': 'every source file of the run (or ?offset=<n>&limit=<n>)',
        '/api/runs/<dialect>/<id>/resume': 'its resume plan, as `ckpt resume --run <id> --json` prints it',
        '/api/runs/<dialect>/<id>/history':
          'its events oldest first, as `ckpt history --json` prints them (?unit=<index>&kinds=a,b&offset=<n>&limit=<n>)',
        '/api/runs/<dialect>/<id>/graph':
          'its dependency graph (or phases, stages) with the resume plan on each node',
        '/api/runs/<dialect>/<id>/timeline': 'every phase and unit with its time bars, for the timeline',
        '/api/raw?path=<file>': 'the raw text of a source file of a run',
        '/api/events':
          'server-sent events: `progress` while loading, `change` with the runs and units that changed',
        '/api/progress': 'the first load: state, message, elapsed time',
      },
    }),
  );
}
