import {
  filterHistory,
  type HistoryDocument,
  type HistoryKind,
  isHistoryKind,
  projectReader,
  type RunView,
  runGraph,
  runHistory,
  runTimeline,
} from '@ckpt/core';
import type { FastifyInstance } from 'fastify';
import type { ProjectState } from '../project.js';
import { sendError, sendJson } from './send.js';

interface RunParams {
  dialect: string;
  id: string;
}

/** Each loaded run's whole history, built once per load (a reload makes new RunViews, so old ones drop out). */
const histories = new WeakMap<RunView, HistoryDocument>();

function wholeHistory(project: ProjectState, run: RunView): HistoryDocument {
  let h = histories.get(run);
  if (!h) {
    h = runHistory(run, projectReader(project.dir));
    histories.set(run, h);
  }
  return h;
}

/**
 * A run's shape and story: `/history` (every event, from the files, oldest first; `?unit=<index>` one unit's,
 * `?kinds=a,b` some kinds, `?offset=&limit=` a page of them), `/graph` (dependencies with the resume plan on
 * them), `/timeline` (the Gantt's rows).
 */
export function registerHistoryRoutes(app: FastifyInstance, project: ProjectState): void {
  app.get<{
    Params: RunParams;
    Querystring: { unit?: string; kinds?: string; offset?: string; limit?: string };
  }>('/api/runs/:dialect/:id/history', (req, reply) => {
    const run = project.get(req.params.dialect, req.params.id);
    if (!run) return sendError(reply, 404, `no ${req.params.dialect} run "${req.params.id}"`);
    const q = req.query;
    let unit: string | undefined;
    if (q.unit !== undefined) {
      // Units are addressed by index: an id may be any length (and any text).
      const i = /^\d{1,9}$/.test(q.unit) ? Number(q.unit) : -1;
      unit = run.units[i]?.id;
      if (unit === undefined)
        return sendError(reply, 404, `no unit #${q.unit} in ${run.dialect} run "${run.id}"`);
    }
    let kinds: HistoryKind[] | undefined;
    if (q.kinds !== undefined && q.kinds !== '') {
      const list = q.kinds.split(',');
      const bad = list.filter((k) => !isHistoryKind(k));
      if (bad.length > 0) return sendError(reply, 400, `unknown kind(s): ${bad.join(', ')}`);
      kinds = list as HistoryKind[];
    }
    const num = (v: string | undefined) => (v !== undefined && /^\d{1,9}$/.test(v) ? Number(v) : undefined);
    const offset = num(q.offset) ?? 0;
    const limit = num(q.limit);
    if (
      (q.offset !== undefined && num(q.offset) === undefined) ||
      (q.limit !== undefined && limit === undefined)
    )
      return sendError(reply, 400, 'offset and limit are whole numbers');
    const opts = { ...(unit !== undefined ? { unit } : {}), ...(kinds ? { kinds } : {}) };
    // A team task's files are its own: one task reads only them; other dialects filter the run's history.
    const doc =
      unit !== undefined && run.dialect === 'team' && !histories.has(run)
        ? runHistory(run, projectReader(project.dir), opts)
        : filterHistory(wholeHistory(project, run), opts);
    // A page of the entries (a run-level history can hold 100,000): `total` counts them all.
    const page =
      offset > 0 || limit !== undefined
        ? {
            ...doc,
            total: doc.entries.length,
            offset,
            entries: doc.entries.slice(offset, offset + (limit ?? doc.entries.length)),
          }
        : { ...doc, total: doc.entries.length, offset: 0 };
    return sendJson(req, reply, project.bodyOf(page));
  });

  app.get<{ Params: RunParams }>('/api/runs/:dialect/:id/graph', (req, reply) => {
    const run = project.get(req.params.dialect, req.params.id);
    if (!run) return sendError(reply, 404, `no ${req.params.dialect} run "${req.params.id}"`);
    return sendJson(
      req,
      reply,
      project.body(`graph:${run.dialect}/${run.id}`, () => runGraph(run)),
    );
  });

  app.get<{ Params: RunParams }>('/api/runs/:dialect/:id/timeline', (req, reply) => {
    const run = project.get(req.params.dialect, req.params.id);
    if (!run) return sendError(reply, 404, `no ${req.params.dialect} run "${req.params.id}"`);
    return sendJson(
      req,
      reply,
      project.body(`timeline:${run.dialect}/${run.id}`, () => runTimeline(run, projectReader(project.dir))),
    );
  });
}
