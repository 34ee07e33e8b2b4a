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

/** The client's entry module: the page shell loads it, and it imports the rest. */
export const ENTRY = 'app.js';

/** A static import of a sibling module: `import ... from './name.js';` or `import './name.js';`. */
const SIBLING_IMPORT = /^import\s(?:[^;]*?\sfrom\s)?'\.\/([\w.-]+\.js)';/gm;

/**
 * Every module `ENTRY` loads through static imports, itself first, in the order they are found. The page shell
 * names them all (`modulepreload`), so the browser fetches them at once instead of one level of imports per
 * round trip (five levels: `app.js`, `run-page.js`, `run-units.js`, `vlist.js`, `pace.js`).
 */
export function clientModules(assets: ReadonlyMap<string, { body: Buffer }>): string[] {
  const found = [ENTRY];
  for (let i = 0; i < found.length; i++) {
    const body = assets.get(found[i]!)?.body.toString('utf8') ?? '';
    for (const m of body.matchAll(SIBLING_IMPORT))
      if (assets.has(m[1]!) && !found.includes(m[1]!)) found.push(m[1]!);
  }
  return assets.has(ENTRY) ? found : [];
}

/**
 * `GET /static/<name>`: the client (plain ES modules and one stylesheet). Returns the client's modules, entry
 * first (`clientModules`), for the page shell.
 */
export function registerStaticRoutes(app: FastifyInstance, staticDir: string): string[] {
  const assets = loadAssets(staticDir);
  for (const [name, body] of vendorAssets())
    if (!assets.has(name)) assets.set(name, { type: TYPES['.js']!, body });
  app.get<{ Params: { name: string } }>('/static/:name', (req, reply) => {
    const a = assets.get(req.params.name);
    if (!a) return reply.code(404).type('text/plain; charset=utf-8').send('not found');
    return reply.type(a.type).header('cache-control', 'no-cache').send(a.body);
  });
  return clientModules(assets);
}
