import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { type LoadRuns, ProjectState } from './project.js';
import { registerEventRoutes } from './routes/events.js';
import { registerHistoryRoutes } from './routes/history.js';
import { registerPageRoutes } from './routes/pages.js';
import { registerRawRoutes } from './routes/raw.js';
import { registerRunRoutes } from './routes/runs.js';
import { sendError } from './routes/send.js';
import { registerStaticRoutes } from './routes/static.js';
import { registerSecurity } from './security.js';
import { watchProject } from './watch.js';

/** Options of the viewer. */
export interface ViewerOptions {
  /** The project directory; the viewer serves nothing outside it. */
  readonly dir: string;
  /** How runs are loaded (default: core's `loadProject`). */
  readonly load?: LoadRuns;
  /** Watch the files and push `change` events (default true). */
  readonly watch?: boolean;
  readonly debounceMs?: number;
  /** Accept only loopback Host headers (see `registerSecurity`). */
  readonly loopbackHostsOnly?: boolean;
  /** Log requests (fastify's logger); default off. */
  readonly logger?: boolean;
}

/** A viewer app, not yet listening: `app.inject` serves tests. */
export interface Viewer {
  readonly app: FastifyInstance;
  readonly project: ProjectState;
  close(): Promise<void>;
}

/**
 * The client's files: static/ beside this package's dist/, or beside the chunk when the CLI bundles the viewer
 * (the packed @ckpt/cli ships them in dist/bundle/static/).
 */
function staticDir(): string {
  const bundled = fileURLToPath(new URL('./static/', import.meta.url));
  return existsSync(bundled) ? bundled : fileURLToPath(new URL('../static/', import.meta.url));
}

/** Builds the read-only viewer over a project directory. */
export async function createViewer(opts: ViewerOptions): Promise<Viewer> {
  const project = new ProjectState(opts.dir, opts.load);
  const app = Fastify({
    logger: opts.logger ?? false,
    forceCloseConnections: true,
    routerOptions: { maxParamLength: 1000 },
  });
  registerSecurity(app, { loopbackHostsOnly: opts.loopbackHostsOnly ?? false });
  registerStaticRoutes(app, staticDir());
  registerPageRoutes(app, project);
  registerRunRoutes(app, project);
  registerHistoryRoutes(app, project);
  registerRawRoutes(app, project);
  registerEventRoutes(app, project);
  app.setNotFoundHandler((req, reply) => sendError(reply, 404, `nothing at ${req.url}`));
  app.setErrorHandler((error, _req, reply) => {
    const err = error as { statusCode?: number; message?: string };
    const code = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    return sendError(reply, code, code === 500 ? `internal error: ${err.message}` : String(err.message));
  });

  const watcher =
    opts.watch === false
      ? undefined
      : watchProject(
          opts.dir,
          () => {
            project.changed();
            // Roots may have appeared or gone: re-aim the watchers (cheap: discovery only, no document reads).
            watcher?.refresh(project.roots());
          },
          { ...(opts.debounceMs !== undefined ? { debounceMs: opts.debounceMs } : {}) },
        );
  watcher?.refresh(project.roots());
  await app.ready();
  return {
    app,
    project,
    async close() {
      watcher?.close();
      await app.close();
    },
  };
}
