import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tty from 'node:tty';
import { describe, expect, it } from 'vitest';
import { isatty } from './tty.js';

describe('isatty', () => {
  it('should answer as node:tty for /dev/null, a file and a closed descriptor', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ckpt-tty-'));
    const file = join(tmp, 'out.txt');
    writeFileSync(file, '');
    const fds = [openSync('/dev/null', 'w'), openSync(file, 'w')];
    try {
      for (const fd of fds) {
        expect(isatty(fd)).toBe(false);
        expect(tty.isatty(fd)).toBe(false);
      }
    } finally {
      for (const fd of fds) closeSync(fd);
      rmSync(tmp, { recursive: true, force: true });
    }
    expect(isatty(fds[0]!)).toBe(false); // closed
  });
});
