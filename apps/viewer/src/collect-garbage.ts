import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's full collection, once asked for (`undefined`: not to be had here). */
let full: (() => void) | undefined | null = null;

/**
 * Collects this thread's garbage now (a full, compacting collection). The loader calls it once, after the first
 * load and before it reports ready: the load leaves ~50 MB of garbage in the old generation (100k documents read
 * ahead and taken in, the runs derived), which V8 collects only when the heap grows again or after seconds of
 * idleness, while the pages asked for next grow the process on top of it. The function is the one `--expose-gc`
 * gives, taken from a context made while the flag is set, then the flag is cleared again (as jest's leak
 * detector does): no other context sees it. A Node run with `--expose-gc` uses its own.
 */
export function collectGarbage(): void {
  if (full === null) {
    const own = (globalThis as { gc?: () => void }).gc;
    if (typeof own === 'function') full = own;
    else {
      try {
        setFlagsFromString('--expose-gc');
        full = runInNewContext('gc') as () => void;
      } catch {
        full = undefined;
      } finally {
        setFlagsFromString('--no-expose-gc');
      }
    }
  }
  full?.();
}
