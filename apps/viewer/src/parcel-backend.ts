import { statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The @parcel/watcher backends the viewer may name; `undefined` leaves the choice to @parcel/watcher. */
export type ParcelBackend = 'inotify';

/**
 * Which backend to ask @parcel/watcher for. Left to choose, it asks watchman first on Linux: it runs
 * `watchman --output-encoding=bser get-sockname` through `popen`, and when that shell finds no watchman, it throws
 * before `pclose`, so the shell is never reaped: a zombie child for the viewer's whole life
 * (@parcel/watcher 2.6.0, src/watchman/WatchmanBackend.cc `getSockPath`, src/Backend.cc `getBackend`).
 *
 * When watchman cannot answer (no `WATCHMAN_SOCK`, no `watchman` file in a folder of `PATH`), this names the backend
 * @parcel/watcher would have fallen back to, inotify, so no probe runs. Otherwise, and on every other platform
 * (macOS uses FSEvents without a probe), @parcel/watcher chooses exactly as before.
 */
export function parcelBackend(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): ParcelBackend | undefined {
  if (platform !== 'linux') return undefined;
  // With no PATH at all, `sh` searches a default of its own: leave the choice to @parcel/watcher.
  if (env.WATCHMAN_SOCK || env.PATH === undefined) return undefined;
  return onPath('watchman', env.PATH) ? undefined : 'inotify';
}

/** Whether a file of that name is in one of PATH's folders, as `sh` looks (an empty entry is the working folder). */
function onPath(name: string, path: string): boolean {
  for (const dir of path.split(delimiter)) {
    try {
      if (!statSync(join(dir || '.', name)).isDirectory()) return true;
    } catch {
      // Not in this folder (or the folder cannot be read): the next one.
    }
  }
  return false;
}
