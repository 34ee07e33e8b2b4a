import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
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
});
