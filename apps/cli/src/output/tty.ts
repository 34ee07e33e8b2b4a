import { fstatSync } from 'node:fs';
import { createRequire } from 'node:module';

let tty: typeof import('node:tty') | undefined;

/**
 * `tty.isatty(fd)`, loading node:tty (and the net and stream modules it pulls in: ~3 ms of a one-file
 * `ckpt validate`) only for a character device. A terminal always is one, so a pipe, a file or a closed
 * descriptor is answered from one fstat; a terminal or /dev/null asks node:tty. Windows always asks node:tty.
 */
export function isatty(fd: number): boolean {
  if (process.platform !== 'win32') {
    try {
      if (!fstatSync(fd).isCharacterDevice()) return false;
    } catch {
      return false;
    }
  }
  tty ??= createRequire(import.meta.url)('node:tty') as typeof import('node:tty');
  return tty.isatty(fd);
}
