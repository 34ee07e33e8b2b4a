import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePlainValidateArgs } from './validate-fast.js';

describe('parsePlainValidateArgs', () => {
  it('should take paths and every validate option spelled out with a valid value', () => {
    expect(
      parsePlainValidateArgs([
        'a',
        '--reporter',
        'json',
        'b',
        '-d',
        'team',
        '--strict',
        '-q',
        '--color=never',
        '-r=sarif',
      ]),
    ).toBeUndefined(); // `-r=sarif` is not how commander spells a short option's value: hand it over
    expect(
      parsePlainValidateArgs([
        'a',
        '--reporter',
        'json',
        'b',
        '-d',
        'team',
        '--strict',
        '-q',
        '--color=never',
      ]),
    ).toEqual({
      paths: ['a', 'b'],
      flags: { reporter: 'json', dialect: 'team', strict: true, quiet: true, color: 'never' },
    });
    expect(parsePlainValidateArgs([])).toEqual({ paths: [], flags: { color: 'auto' } });
  });

  it('should hand anything unusual over to the full program', () => {
    for (const args of [
      ['--help'],
      ['-h'],
      ['--reporter'],
      ['--reporter', 'xml'],
      ['--dialect=nope'],
      ['--bogus'],
      ['-qs'],
      ['--', '-file'],
      ['--color'],
    ])
      expect(parsePlainValidateArgs(args), args.join(' ')).toBeUndefined();
  });
});

describe('ckpt validate output', () => {
  it('should stop quietly, without a stack trace, when the reader closes stdout early', () => {
    const bin = resolve(import.meta.dirname, '../../bin/ckpt.js');
    const fixtures = resolve(import.meta.dirname, '../../../../test-fixtures');
    const r = spawnSync(
      'sh',
      [
        '-c',
        `"${process.execPath}" "${bin}" validate "${fixtures}" --reporter json | head -c 10 > /dev/null`,
      ],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '' } },
    );
    expect(r.stderr).not.toContain('EPIPE');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('should write the whole report in order to a non-blocking stdout read slowly', () => {
    // A pool's worker threads (their stdio) or a parent process can leave a pipe non-blocking: a full pipe then
    // refuses writes (EAGAIN) until the reader catches up, and the report must still arrive whole, in order.
    const bin = resolve(import.meta.dirname, '../../bin/ckpt.js');
    const fixtures = resolve(import.meta.dirname, '../../../../test-fixtures');
    const env = { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '' };
    const direct = spawnSync(process.execPath, [bin, 'validate', fixtures, '--reporter', 'json'], {
      encoding: 'utf8',
      env,
      maxBuffer: 1 << 28,
    });
    expect(direct.stdout.length).toBeGreaterThan(1 << 18);
    const dir = mkdtempSync(join(tmpdir(), 'ckpt-nonblocking-'));
    try {
      // Building process.stdout over a pipe makes it non-blocking.
      writeFileSync(join(dir, 'nonblocking.cjs'), 'process.stdout;\n');
      // Reads 16 KiB, then sleeps 5 ms: the pipe fills, then drains while ckpt is still writing.
      writeFileSync(
        join(dir, 'slow-reader.cjs'),
        `const fs = require('node:fs');
const buf = Buffer.alloc(16384);
const pause = new Int32Array(new SharedArrayBuffer(4));
const out = [];
for (;;) {
  let n;
  try { n = fs.readSync(0, buf); } catch (e) { if (e.code !== 'EAGAIN') throw e; Atomics.wait(pause, 0, 0, 1); continue; }
  if (n === 0) break;
  out.push(Buffer.from(buf.subarray(0, n)));
  Atomics.wait(pause, 0, 0, 5);
}
fs.writeFileSync(process.argv[2], Buffer.concat(out));
`,
      );
      const r = spawnSync(
        'sh',
        [
          '-c',
          `"${process.execPath}" -r "${join(dir, 'nonblocking.cjs')}" "${bin}" validate "${fixtures}" --reporter json | "${process.execPath}" "${join(dir, 'slow-reader.cjs')}" "${join(dir, 'out.json')}"`,
        ],
        { encoding: 'utf8', env },
      );
      expect(r.stderr).toBe('');
      expect(readFileSync(join(dir, 'out.json'), 'utf8') === direct.stdout).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
