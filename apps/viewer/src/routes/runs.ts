import { resumeDocument, runDocument, runsDocument, summariesDocument } from '@ckpt/core';
import type { FastifyInstance } from 'fastify';
import type { ProjectState } from '../project.js';
import { sendError, sendJson } from './send.js';

interface RunParams {
  dialect: string;
  id: string;
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

  app.get('/api/', (_req, reply) =>
    reply.type('application/json; charset=utf-8').send({
      endpoints: {
        '/api/runs': 'every run, as `ckpt status --json` prints it',
        '/api/summaries': 'one-line facts of every run (the runs page)',
        '/api/runs/<dialect>/<id>': 'one run, as `ckpt status --run <id> --json` prints it',
        '/api/runs/<dialect>/<id>/resume': 'its resume plan, as `ckpt resume --run <id> --json` prints it',
        '/api/raw?path=<file>': 'the raw text of a source file of a run',
        '/api/events': 'server-sent events: `change` when checkpoint files change',
      },
    }),
  );
}
