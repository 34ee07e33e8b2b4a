import { ReadRefusedError, readRegularFile } from '@ckpt/core';
import type { FastifyInstance } from 'fastify';
import type { ProjectState } from '../project.js';
import { resolveInside } from '../safe-path.js';
import { sendError } from './send.js';

/** Larger files are not shown whole in a browser tab. */
export const RAW_LIMIT = 32 * 1024 * 1024;

/**
 * `GET /api/raw?path=<file>`: the bytes of a file that some run lists as a source. Anything else (another file
 * of the project, a path with `..`, a symlink leading out) is refused, so the viewer serves checkpoints only.
 */
export function registerRawRoutes(app: FastifyInstance, project: ProjectState): void {
  app.get<{ Querystring: { path?: string } }>('/api/raw', (req, reply) => {
    const rel = req.query.path;
    if (typeof rel !== 'string' || rel === '') return sendError(reply, 400, 'give ?path=<file>');
    const listed = project.all().some((r) => r.sources.some((s) => s.path === rel));
    if (!listed) return sendError(reply, 404, `"${rel}" is not a source file of any run`);
    const r = resolveInside(project.dir, rel);
    if ('refused' in r)
      return r.refused === 'outside'
        ? sendError(reply, 403, `"${rel}" is outside the project`)
        : sendError(reply, 404, `"${rel}" is not a readable file`);
    let bytes: Buffer;
    try {
      // The checkpoint reader: a FIFO or device swapped in after the check is refused, and nothing over the
      // limit is read into memory.
      bytes = readRegularFile(r.path, { confineTo: project.dir, maxSize: RAW_LIMIT });
    } catch (e) {
      if (e instanceof ReadRefusedError && e.findingCode === 'io/too-large')
        return sendError(reply, 413, `"${rel}" is larger than ${RAW_LIMIT} bytes`);
      return sendError(reply, 404, `"${rel}" could not be read`);
    }
    if (bytes.length > RAW_LIMIT) return sendError(reply, 413, `"${rel}" is larger than ${RAW_LIMIT} bytes`);
    // text/plain + nosniff + the sandboxing CSP: a file holding HTML is shown, never rendered.
    return reply.type('text/plain; charset=utf-8').header('content-disposition', 'inline').send(bytes);
  });
}
