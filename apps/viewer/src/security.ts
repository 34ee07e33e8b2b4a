import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The page policy: scripts, styles and fetches from this server only, nothing inline, nothing framed; every
 * value from a file reaches the DOM as text (the client never uses innerHTML), so a hostile checkpoint cannot
 * run code even if an escape were missed.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const READ_METHODS = new Set(['GET', 'HEAD']);

/** The host names a loopback viewer answers to. */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

export interface SecurityOptions {
  /**
   * Accept only loopback Host headers (`127.0.0.1`, `localhost`, `[::1]`, any port): when serving on loopback,
   * a page of another site that rebinds its DNS name to 127.0.0.1 then cannot read the API.
   */
  readonly loopbackHostsOnly?: boolean;
  /**
   * Accept only these Host names (any port; IPv6 in brackets), beside the loopback ones: the allow-list of a viewer
   * serving other machines (`--allowed-host`). When given, the Host check is on whatever `loopbackHostsOnly` says.
   */
  readonly allowedHosts?: readonly string[];
  /**
   * The access token of a viewer serving other machines: every request carries it, as `?token=` on the first load
   * (answered with a cookie and a redirect to the same URL without it), then as that cookie (HttpOnly,
   * SameSite=Strict), or as `Authorization: Bearer <token>`. Missing: 401; wrong: 403.
   */
  readonly token?: string;
}

/** The host name of a Host header, without its port, lower case (`[::1]:80` → `[::1]`). */
export function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  const m = /^(\[[^\]]*\]|[^:]*)(?::\d*)?$/.exec(h);
  return (m?.[1] ?? h).replace(/\.$/, '');
}

/** A Host allow-list entry as `hostName` gives it (an IPv6 address gets its brackets). */
export function normalHost(name: string): string {
  const h = name.trim().toLowerCase();
  return h.includes(':') && !h.startsWith('[') ? `[${h}]` : hostName(h);
}

/** The name of the token cookie: one per token, so two viewers on one host do not overwrite each other's. */
export function tokenCookieName(token: string): string {
  return `ckpt_token_${createHash('sha256').update(token).digest('hex').slice(0, 12)}`;
}

function sameSecret(given: string, token: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

/** The value of one cookie of a Cookie header. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The URL without its `token` query parameter (where a first load with the token is redirected). */
function withoutToken(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  params.delete('token');
  const rest = params.toString();
  return `${url.slice(0, q)}${rest ? `?${rest}` : ''}`;
}

const refuse = (reply: FastifyReply, code: number, error: string) =>
  reply.code(code).type('application/json; charset=utf-8').send({ error });

/** Read-only, same-origin, no sniffing: hooks every response goes through. */
export function registerSecurity(app: FastifyInstance, opts: SecurityOptions): void {
  const allowed =
    opts.allowedHosts !== undefined || opts.loopbackHostsOnly
      ? new Set([...LOOPBACK_HOSTS, ...(opts.allowedHosts ?? []).map(normalHost)])
      : undefined;
  const token = opts.token;
  const cookie = token ? tokenCookieName(token) : '';
  app.addHook('onRequest', async (req, reply) => {
    // Set here rather than in onSend so hijacked responses (the event stream) carry them too.
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('cross-origin-resource-policy', 'same-origin');
    if (!READ_METHODS.has(req.method)) {
      return reply
        .code(405)
        .header('allow', 'GET, HEAD')
        .type('application/json; charset=utf-8')
        .send({ error: 'method not allowed: the viewer is read-only (GET and HEAD only)' });
    }
    if (allowed && !allowed.has(hostName(String(req.headers.host ?? '')))) {
      return refuse(reply, 421, 'unexpected Host header; open the viewer by the address it printed');
    }
    if (!token) return;
    const query = (req.query as Record<string, unknown> | undefined)?.token;
    const given = typeof query === 'string' ? query : undefined;
    if (given !== undefined) {
      if (!sameSecret(given, token)) return refuse(reply, 403, 'wrong access token');
      // The first load: keep the token in a cookie, and drop it from the address bar (and from history).
      reply.header('set-cookie', `${cookie}=${token}; Path=/; HttpOnly; SameSite=Strict`);
      return reply.code(303).header('location', withoutToken(req.url)).send();
    }
    const auth = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
    const carried = auth ?? cookieValue(req.headers.cookie, cookie);
    if (carried === undefined)
      return refuse(reply, 401, 'this viewer needs its access token: open the URL it printed (with ?token=)');
    if (!sameSecret(carried, token)) return refuse(reply, 403, 'wrong access token');
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache');
    return payload;
  });
}
