import type { FastifyInstance } from 'fastify';

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

export interface SecurityOptions {
  /**
   * Accept only loopback Host headers (`127.0.0.1`, `localhost`, `[::1]`, any port): when serving on loopback,
   * a page of another site that rebinds its DNS name to 127.0.0.1 then cannot read the API.
   */
  readonly loopbackHostsOnly?: boolean;
}

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/i;

/** Read-only, same-origin, no sniffing: hooks every response goes through. */
export function registerSecurity(app: FastifyInstance, opts: SecurityOptions): void {
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
    if (opts.loopbackHostsOnly && !LOOPBACK_HOST.test(String(req.headers.host ?? ''))) {
      return reply
        .code(421)
        .type('application/json; charset=utf-8')
        .send({ error: 'unexpected Host header; open the viewer by the address it printed' });
    }
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache');
    return payload;
  });
}
