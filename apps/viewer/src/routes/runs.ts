import {
  RUN_VIEW_FORMAT_VERSION,
  resumeDocument,
  runDocument,
  runsDocument,
  summariesDocument,
} from '@ckpt/core';
import type { FastifyInstance } from 'fastify';
import type { ProjectState } from '../project.js';
import {
  findingsPage,
  MAX_PAGE,
  PAGE_UNITS,
  pageDocument,
  sourcesDocument,
  unitDocument,
  unitsPage,
} from '../slim.js';
import { sendError, sendJson } from './send.js';

interface RunParams {
  dialect: string;
  id: string;
}

interface PageQuery {
  offset?: string;
  limit?: string;
  id?: string | string[];
  units?: string;
}

/**
 * The JSON API: the same versioned documents `ckpt status --json` and `ckpt resume --json` print, built by the
 * same core functions from the same `loadProject`.
 */
export function registerRunRoutes(app: FastifyInstance, project: ProjectState): void {
  app.get('/api/runs', (req, reply) =>
    sendJson(
      req,
      reply,
      project.body('runs', () => runsDocument(project.all())),
    ),
  );

  app.get('/api/summaries', (req, reply) =>
    sendJson(
      req,
      reply,
      project.body('summaries', () => summariesDocument(project.all())),
    ),
  );

  app.get<{ Params: RunParams }>('/api/runs/:dialect/:id', (req, reply) => {
    const run = project.get(req.params.dialect, req.params.id);
    if (!run) return sendError(reply, 404, `no ${req.params.dialect} run "${req.params.id}"`);
    return sendJson(
      req,
      reply,
      project.body(`run:${run.dialect}/${run.id}`, () => runDocument(run)),
    );
  });

  app.get<{ Params: RunParams }>('/api/runs/:dialect/:id/resume', (req, reply) => {
    const run = project.get(req.params.dialect, req.params.id);
    if (!run) return sendError(reply, 404, `no ${req.params.dialect} run "${req.params.id}"`);
    return sendJson(
      req,
      reply,
      project.body(`resume:${run.dialect}/${run.id}`, () => resumeDocument(run)),
    );
  });

  app.get<{ Params: RunParams; Querystring: PageQuery }>('/api/runs/:dialect/:id/page', (req, reply) => {
    const run = project.get(req.params.dialect, req.params.id);
    if (!run) return sendError(reply, 404, `no ${req.params.dialect} run "${req.params.id}"`);
    const n = Math.max(1, Math.min(MAX_PAGE, Number.parseInt(req.query.units ?? '', 10) || PAGE_UNITS));
    return sendJson(
      req,
      reply,
      project.body(`page${n}:${run.dialect}/${run.id}`, () => pageDocument(run, n)),
    );
  });

  app.get<{ Params: RunParams; Querystring: PageQuery }>('/api/runs/:dialect/:id/units', (req, reply) => {
    const run = project.get(req.params.dialect, req.params.id);
    if (!run) return sendError(reply, 404, `no ${req.params.dialect} run "${req.params.id}"`);
    // Not kept: pages are many, and each is cheap to cut from the loaded run.
    return sendJson(req, reply, project.bodyOf(unitsPage(run, req.query)));
  });

  app.get<{ Params: RunParams; Querystring: PageQuery }>('/api/runs/:dialect/:id/findings', (req, reply) => {
    const run = project.get(req.params.dialect, req.params.id);
    if (!run) return sendError(reply, 404, `no ${req.params.dialect} run "${req.params.id}"`);
    return sendJson(req, reply, project.bodyOf(findingsPage(run, req.query)));
  });

  app.get<{ Params: RunParams; Querystring: PageQuery }>('/api/runs/:dialect/:id/sources', (req, reply) => {
    const run = project.get(req.params.dialect, req.params.id);
    if (!run) return sendError(reply, 404, `no ${req.params.dialect} run "${req.params.id}"`);
    if (req.query.offset !== undefined || req.query.limit !== undefined)
      return sendJson(req, reply, project.bodyOf(sourcesDocument(run, req.query)));
    return sendJson(
      req,
      reply,
      project.body(`sources:${run.dialect}/${run.id}`, () => sourcesDocument(run)),
    );
  });

  // triage: a unit by its index in run.units, so a unit id of any length opens (an id in the path is limited).
  app.get<{ Params: RunParams; Querystring: { index?: string } }>(
    '/api/runs/:dialect/:id/unit',
    (req, reply) => {
      const run = project.get(req.params.dialect, req.params.id);
      if (!run) return sendError(reply, 404, `no ${req.params.dialect} run "${req.params.id}"`);
      const i = /^\d{1,9}$/.test(req.query.index ?? '') ? Number(req.query.index) : -1;
      const unit = run.units[i];
      if (!unit)
        return sendError(
          reply,
          404,
          `no unit at index ${req.query.index ?? '(none)'} in ${run.dialect} run "${run.id}"`,
        );
      return sendJson(req, reply, project.bodyOf({ formatVersion: RUN_VIEW_FORMAT_VERSION, unit }));
    },
  );

  app.get<{ Params: RunParams & { unit: string } }>('/api/runs/:dialect/:id/units/:unit', (req, reply) => {
    const run = project.get(req.params.dialect, req.params.id);
    if (!run) return sendError(reply, 404, `no ${req.params.dialect} run "${req.params.id}"`);
    const doc = unitDocument(run, req.params.unit);
    if (!doc) return sendError(reply, 404, `no unit "${req.params.unit}" in ${run.dialect} run "${run.id}"`);
    // Not cached: one unit is small, and caching every opened unit would keep a second copy of a huge run.
    return sendJson(req, reply, project.bodyOf(doc));
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
