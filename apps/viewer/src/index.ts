// @ckpt/viewer: the read-only web viewer. Thin: routes call core, pages render core's RunView.
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { LOOPBACK_HOSTS, normalHost } from './security.js';
import { createViewer, type Viewer, type ViewerOptions } from './server.js';

export type { LoadRuns } from './project.js';
export { CONTENT_SECURITY_POLICY, tokenCookieName } from './security.js';
export { createViewer, type Viewer, type ViewerOptions } from './server.js';

/** Options of a listening viewer. */
export interface StartOptions extends ViewerOptions {
  readonly port?: number;
  readonly host?: string;
  /**
   * Listen on an address other than loopback (`--allow-remote`). Without it such a host is refused
   * (`RemoteBindError`). With it the Host check stays on (loopback, the address itself, this machine's addresses
   * for a wildcard, and `allowedHosts`), and every request must carry a random access token (the printed URL has it).
   */
  readonly allowRemote?: boolean;
}

/** A listening viewer and its URL. */
export interface StartedViewer extends Viewer {
  /** The URL to open; for a viewer serving other machines it carries the access token (`?token=`). */
  readonly url: string;
  readonly port: number;
  /** Whether it listens on an address other than loopback (then `token` is set). */
  readonly remote: boolean;
  readonly token?: string;
  /** The Host names it answers to (remote only; loopback ones included). */
  readonly allowedHosts?: readonly string[];
}

/** Refused: a host other than loopback without `allowRemote`. */
export class RemoteBindError extends Error {
  constructor(readonly host: string) {
    super(
      `refusing to listen on ${host}: it is not a loopback address, so other machines could read the project; pass --allow-remote to serve them (the URL then carries an access token)`,
    );
    this.name = 'RemoteBindError';
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Whether a listening host is loopback only (`127.x.x.x`, `localhost`, `::1`). */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase();
  return LOOPBACK.has(h) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/** The addresses of this machine's network interfaces (what a wildcard bind answers on). */
function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .flatMap((i) => (i && !i.internal ? [i.address] : []));
}

/** Starts the viewer on host:port (default 127.0.0.1, port 0 = any free one). */
export async function startViewer(opts: StartOptions): Promise<StartedViewer> {
  const host = opts.host ?? '127.0.0.1';
  const requested = opts.port ?? 0;
  const remote = !isLoopbackHost(host);
  if (remote && !opts.allowRemote) throw new RemoteBindError(host);
  const wildcard = host === '0.0.0.0' || host === '::';
  const allowedHosts = remote
    ? [
        ...LOOPBACK_HOSTS,
        ...(wildcard ? interfaceAddresses() : [host]).map(normalHost),
        ...(opts.allowedHosts ?? []).map(normalHost),
      ].filter((h, i, all) => all.indexOf(h) === i)
    : undefined;
  const token = remote ? (opts.token ?? randomBytes(24).toString('base64url')) : opts.token;
  const viewer = await createViewer({
    ...opts,
    loopbackHostsOnly: opts.loopbackHostsOnly ?? !remote,
    ...(allowedHosts ? { allowedHosts } : {}),
    ...(token ? { token } : {}),
  });
  await viewer.app.listen({ port: requested, host });
  // The project loads in the background (createViewer started it): the address is printed at once.
  const addr = viewer.app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : requested;
  const shown = wildcard ? '127.0.0.1' : isIP(host) === 6 ? `[${host}]` : host;
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  return {
    ...viewer,
    url: `http://${shown}:${port}/${query}`,
    port,
    remote,
    ...(token ? { token } : {}),
    ...(allowedHosts ? { allowedHosts } : {}),
  };
}

export const VIEWER_PACKAGE = '@ckpt/viewer';
