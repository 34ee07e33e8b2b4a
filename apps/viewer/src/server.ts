import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
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
import { type ProjectWatcher, type WatchBackend, watchProject } from './watch.js';

/** Options of the viewer. */
export interface ViewerOptions {
  /** The project directory; the viewer serves nothing outside it. */
  readonly dir: string;
  /** How runs are loaded (default: core's `loadProject`). */
  readonly load?: LoadRuns;
  /** Watch the files and push `change` events (default true). */
  readonly watch?: boolean;
  readonly debounceMs?: number;
  /** Force the watcher's backend (tests of the fallback); default @parcel/watcher when it loads. */
  readonly watchBackend?: WatchBackend;
  /** Load on a loader thread (default true; an injected `load` always runs on this thread). */
  readonly loaderThread?: boolean;
  /** Accept only loopback Host headers (see `registerSecurity`). */
  readonly loopbackHostsOnly?: boolean;
  /** Accept only these Host names beside loopback (`--allowed-host`; see `registerSecurity`). */
  readonly allowedHosts?: readonly string[];
  /** An access token every request must carry (a viewer serving other machines; see `registerSecurity`). */
  readonly token?: string;
  /** Log requests (fastify's logger); default off. */
  readonly logger?: boolean;
}

/** A viewer app, not yet listening: `app.inject` serves tests. */
export interface Viewer {
  readonly app: FastifyInstance;
  readonly project: ProjectState;
  /** The file watcher, once it is watching (undefined with `watch: false` or when no watcher could start). */
  watcher(): ProjectWatcher | undefined;
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

/** The longest the first load waits for the watcher to start. */
const WATCHER_WAIT_MS = 3000;

/** JSON API routes that wait for the first load (the event stream and the progress answer at once). */
const WAITS_FOR_LOAD = /^\/api\/(?!events|progress)/;

/**
 * Builds the read-only viewer over a project directory. It answers at once: the first load runs in the background
 * (pages show its progress); the JSON API waits for it.
 */
export async function createViewer(opts: ViewerOptions): Promise<Viewer> {
  const project = new ProjectState(opts.dir, opts.load);
  const app = Fastify({
    logger: opts.logger ?? false,
    forceCloseConnections: true,
    routerOptions: { maxParamLength: 1000 },
  });
  registerSecurity(app, {
    loopbackHostsOnly: opts.loopbackHostsOnly ?? false,
    ...(opts.allowedHosts ? { allowedHosts: opts.allowedHosts } : {}),
    ...(opts.token ? { token: opts.token } : {}),
  });
  // gzip/brotli/deflate by Accept-Encoding, for bodies over 1 KB (a 10,000-unit run's JSON shrinks ~10×).
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
  app.addHook('preHandler', async (req) => {
    if (!project.isReady && WAITS_FOR_LOAD.test(req.url)) await project.ready();
  });
  const modules = registerStaticRoutes(app, staticDir());
  registerPageRoutes(app, project, modules);
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

  const start = () =>
    project.start({ ...(opts.loaderThread !== undefined ? { thread: opts.loaderThread } : {}) });
  let watcher: ProjectWatcher | undefined;
  let closed = false;
  // The first load starts once the watcher watches (0.4 s on 100,000 files), so no change falls between the two;
  // a request that needs the project before then starts it, and the watcher then asks for one more load.
  const watching =
    opts.watch === false
      ? Promise.resolve(start())
      : watchProject(opts.dir, (paths) => project.changed(paths), {
          ...(opts.debounceMs !== undefined ? { debounceMs: opts.debounceMs } : {}),
          ...(opts.watchBackend ? { backend: opts.watchBackend } : {}),
          // The native watcher stopped and the fallback took over (progress says which watches now).
          onError: () => {
            if (watcher) project.watcher = watcher.backend;
          },
        }).then(
          (w) => {
            watcher = w;
            project.watcher = w.backend;
            if (closed) return void w.close();
            if (project.started) project.changed();
            else start();
          },
          () => {
            if (!closed) start();
          },
        );
  // A watcher that takes too long to start (a huge tree) must not hold the first load back.
  setTimeout(() => {
    if (!closed) start();
  }, WATCHER_WAIT_MS).unref();
  await app.ready();
  return {
    app,
    project,
    watcher: () => watcher,
    async close() {
      closed = true;
      // All at once, the loader first: a first load still running is cancelled, never waited for (its thread, the
      // core load it runs and the read-ahead workers that load started are terminated). A watcher still starting
      // is closed once it has started (see `watching`).
      await Promise.all([project.close(), app.close(), watching.then(() => watcher?.close())]);
    },
  };
}
