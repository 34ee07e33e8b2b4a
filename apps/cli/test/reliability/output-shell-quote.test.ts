import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fcParams } from '@ckpt/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ckpt, project, RAW_CONTROL } from './output-cli.js';

// The `rm` command doctor prints for a leftover temp file is run with /bin/sh, as a person pasting it would: it
// must remove exactly that file, whatever its name, and create nothing.

/** The commands of doctor's fixes for temp files (`... delete it: <command>`). */
function doctorRm(dir: string): string[] {
  const r = ckpt(['doctor', '--json', '.'], dir);
  const problems = JSON.parse(r.stdout).problems as { kind: string; fix: string }[];
  return problems.filter((x) => x.kind === 'temp-file').map((x) => x.fix.replace(/^.*?delete it: /, ''));
}

function runPrinted(command: string, cwd: string): void {
  execFileSync('/bin/sh', ['-c', command], { cwd, stdio: 'pipe', timeout: 10_000 });
}

describe("doctor's rm command", () => {
  it("should remove exactly x'; touch PWNED; echo '.json.ckpt-tmp-1-aa and run nothing else", () => {
    const name = "x'; touch PWNED; echo '.json.ckpt-tmp-1-aa";
    const p = project({ [name]: '{}', 'keep.json': '{}' });
    try {
      const [command] = doctorRm(p.dir);
      expect(command).toBeDefined();
      runPrinted(command!, p.dir);
      expect(existsSync(join(p.dir, 'PWNED'))).toBe(false);
      expect(readdirSync(p.dir).sort()).toEqual(['keep.json']);
    } finally {
      p.cleanup();
    }
  });

  it('should remove exactly the named temp file for any name, printing nothing a terminal acts on', () => {
    // Any text except NUL and '/' (names Node reads as UTF-8; raw non-UTF-8 bytes are core's shell-quote test).
    const stem = fc
      .string({ unit: 'binary', minLength: 1, maxLength: 16 })
      .map((s) => s.replace(/[\u0000/]/g, '_'));
    fc.assert(
      fc.property(stem, (s) => {
        const name = `${s}.json.ckpt-tmp-1-aa`;
        const p = project({ 'keep.json': '{}' });
        try {
          writeFileSync(join(p.dir, name), '{}');
          const commands = doctorRm(p.dir);
          expect(commands).toHaveLength(1);
          expect(RAW_CONTROL.exec(commands[0]!.replace(/\n/g, ''))?.[0]).toBeUndefined();
          runPrinted(commands[0]!, p.dir);
          expect(readdirSync(p.dir)).toEqual(['keep.json']);
        } finally {
          p.cleanup();
        }
      }),
      fcParams(25),
    );
  });
});
