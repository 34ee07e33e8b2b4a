import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { vendorAssets } from '../vendor.js';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The client's files, read once: the URL only ever selects a name from this list, never builds a path. */
function loadAssets(dir: string): Map<string, { type: string; body: Buffer }> {
  const assets = new Map<string, { type: string; body: Buffer }>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (type) assets.set(name, { type, body: readFileSync(join(dir, name)) });
  }
  return assets;
}

/** `GET /static/<name>`: the client (plain ES modules and one stylesheet). */
export function registerStaticRoutes(app: FastifyInstance, staticDir: string): void {
  const assets = loadAssets(staticDir);
  for (const [name, body] of vendorAssets())
    if (!assets.has(name)) assets.set(name, { type: TYPES['.js']!, body });
  app.get<{ Params: { name: string } }>('/static/:name', (req, reply) => {
    const a = assets.get(req.params.name);
    if (!a) return reply.code(404).type('text/plain; charset=utf-8').send('not found');
    return reply.type(a.type).header('cache-control', 'no-cache').send(a.body);
  });
}
