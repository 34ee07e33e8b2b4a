import { fstatSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';

let tty: typeof import('node:tty') | undefined;
/** The device number of /dev/null (-1 where there is none), once asked. */
let devNull: number | undefined;

/**
 * `tty.isatty(fd)`, loading node:tty (and the net and stream modules it pulls in: ~9 ms of CPU, a tenth of a
 * one-file `ckpt validate`) only for a character device that may be a terminal. A terminal always is a character
 * device, so a pipe, a file or a closed descriptor is answered from one fstat; /dev/null (`> /dev/null`, a CI job
 * that wants only the exit code) is one too but never a terminal: answered from its device number. Any other
 * character device asks node:tty. Windows always asks node:tty.
 */
export function isatty(fd: number): boolean {
  if (process.platform !== 'win32') {
    let rdev: number;
    try {
      const st = fstatSync(fd);
      if (!st.isCharacterDevice()) return false;
      rdev = st.rdev;
    } catch {
      return false;
    }
    if (rdev === nullDevice()) return false;
  }
  tty ??= createRequire(import.meta.url)('node:tty') as typeof import('node:tty');
  return tty.isatty(fd);
}

function nullDevice(): number {
  if (devNull === undefined) {
    try {
      const st = statSync('/dev/null');
      devNull = st.isCharacterDevice() ? st.rdev : -1;
    } catch {
      devNull = -1;
    }
  }
  return devNull;
}
