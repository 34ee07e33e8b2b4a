// The pool's worker thread (see pool.ts): core's own script for it, also bundled as the CLI's dist/bundle/pool-worker.js.
import { servePool } from './serve.js';

servePool();
