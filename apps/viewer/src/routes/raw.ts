import { ReadRefusedError, readRegularFile, redactSecrets } from '@ckpt/core';
import type { FastifyInstance } from 'fastify';
import type { ProjectState } from '../project.js';
import { resolveInside } from '../safe-path.js';
import { sendError } from './send.js';

/** Larger files are not shown whole in a browser tab. */
export const RAW_LIMIT = 32 * 1024 * 1024;

/** Whether a raw file was served with its secret-looking values masked (`x-ckpt-secrets`). */
export type RawSecrets = 'none' | 'redacted' | 'revealed';

/**
 * The file as served: its bytes, or, when it holds secret-looking values and `reveal` was not asked for, its text
 * with each of them replaced by `[REDACTED:<kind>]` (core's one pattern table, as every other output).
 */
export function maskedRaw(bytes: Buffer, reveal: boolean): { body: Buffer; secrets: RawSecrets } {
  const text = bytes.toString('utf8');
  const masked = redactSecrets(text);
  if (masked === text) return { body: bytes, secrets: 'none' };
  return reveal
    ? { body: bytes, secrets: 'revealed' }
    : { body: Buffer.from(masked, 'utf8'), secrets: 'redacted' };
}

/**
 * `GET /api/raw?path=<file>[&reveal=1]`: the bytes of a file that some run lists as a source, secret-looking
 * values masked unless `reveal=1` (the page's explicit toggle). Anything else (another file of the project, a path
 * with `..`, a symlink leading out) is refused, so the viewer serves checkpoints only.
 */
export function registerRawRoutes(app: FastifyInstance, project: ProjectState): void {
  app.get<{ Querystring: { path?: string; reveal?: string } }>('/api/raw', async (req, reply) => {
    const rel = req.query.path;
    if (typeof rel !== 'string' || rel === '') return sendError(reply, 400, 'give ?path=<file>');
    const listed = await project.query({ kind: 'listed', path: rel });
    if (!('body' in listed) || listed.body !== 'true')
      return sendError(reply, 404, `"${rel}" is not a source file of any run`);
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
    const { body, secrets } = maskedRaw(bytes, req.query.reveal === '1');
    // text/plain + nosniff + the sandboxing CSP: a file holding HTML is shown, never rendered.
    return reply
      .type('text/plain; charset=utf-8')
      .header('content-disposition', 'inline')
      .header('cache-control', 'no-store')
      .header('x-ckpt-secrets', secrets)
      .send(body);
  });
}
