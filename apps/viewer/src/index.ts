// @ckpt/viewer: the read-only web viewer. Thin: routes call core, pages render core's RunView.
import { isIP } from 'node:net';
import { createViewer, type Viewer, type ViewerOptions } from './server.js';

export type { LoadRuns } from './project.js';
export { CONTENT_SECURITY_POLICY } from './security.js';
export { createViewer, type Viewer, type ViewerOptions } from './server.js';

/** Options of a listening viewer. */
export interface StartOptions extends ViewerOptions {
  readonly port?: number;
  readonly host?: string;
}

/** A listening viewer and its URL. */
export interface StartedViewer extends Viewer {
  readonly url: string;
  readonly port: number;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** Starts the viewer on host:port (default 127.0.0.1, port 0 = any free one). */
export async function startViewer(opts: StartOptions): Promise<StartedViewer> {
  const host = opts.host ?? '127.0.0.1';
  const requested = opts.port ?? 0;
  const viewer = await createViewer({
    ...opts,
    loopbackHostsOnly: opts.loopbackHostsOnly ?? LOOPBACK.has(host),
  });
  await viewer.app.listen({ port: requested, host });
  // The project loads in the background (createViewer started it): the address is printed at once.
  const addr = viewer.app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : requested;
  const shown = isIP(host) === 6 ? `[${host}]` : host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return { ...viewer, url: `http://${shown}:${port}/`, port };
}

export const VIEWER_PACKAGE = '@ckpt/viewer';
