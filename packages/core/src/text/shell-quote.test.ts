import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fcParams } from '@ckpt/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shellCommand, shellQuote } from './shell-quote.js';
import { hasTerminalControl } from './terminal-escape.js';

/** What `sh` makes of a word: the bytes printf receives as its one argument. */
function shWord(word: string): Buffer {
  return execFileSync('/bin/sh', ['-c', `printf '%s' ${word}`]);
}

describe('shellQuote', () => {
  it.each([
    ['run-2026-11-29', 'run-2026-11-29'],
    ['a b', "'a b'"],
    ["it's", "'it'\\''s'"],
    ['', "''"],
    ['\x1b[2J', `"$(printf '\\033')"'[2J'`],
  ])('should quote %j as %j', (arg, word) => {
    expect(shellQuote(arg)).toBe(word);
  });

  it('should give sh back exactly the argument, for hostile names', () => {
    for (const name of [
      "x'; touch PWNED; echo '.json.ckpt-tmp-1-aa",
      '$(touch PWNED)',
      '`touch PWNED`',
      'a\nb\n',
      '-rf',
      'tab\there \\ "q" \u202e !*?[a]~',
    ])
      expect(shWord(shellQuote(name)).toString('utf8')).toBe(name);
  });

  it('should write nothing a terminal acts on except a quoted line feed', () => {
    expect(hasTerminalControl(shellQuote(Buffer.from([0x1b, 0x9b, 0xff, 0x07, 0x61])))).toBe(false);
  });

  it('should make a printed rm remove exactly the named file, for any name (sh in a scratch folder)', () => {
    const name = fc
      .uint8Array({ minLength: 1, maxLength: 24 })
      .map((b) => Buffer.from(b.map((x) => (x === 0 || x === 0x2f ? 0x41 : x))))
      .filter((b) => b.toString('latin1') !== '.' && b.toString('latin1') !== '..');
    fc.assert(
      fc.property(name, (file) => {
        const dir = mkdtempSync(join(tmpdir(), 'ckpt-quote-'));
        try {
          writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), file]), 'x');
          writeFileSync(join(dir, 'keep'), 'x');
          execFileSync('/bin/sh', ['-c', shellCommand(['rm', '--', file])], { cwd: dir, stdio: 'pipe' });
          expect(readdirSync(dir)).toEqual(['keep']);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      fcParams(60),
    );
  });
});
