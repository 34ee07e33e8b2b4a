import { fcParams } from '@ckpt/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseEnv, serializeEnv } from './env.js';

describe('parseEnv', () => {
  it('should read plain and quoted values, comments and blank lines', () => {
    const p = parseEnv('# header\n\nA=1\nB="two words"\nC="q\\"x\\\\y"\n', 's.env');
    expect(p.ok).toBe(true);
    expect({ ...p.values }).toEqual({ A: '1', B: 'two words', C: 'q"x\\y' });
    expect(p.comments).toEqual([{ line: 1, text: '# header' }]);
    expect(p.sourceMap.locate('/B')).toEqual({ line: 4, column: 3 });
  });

  it('should report each unparsable line with its line and column', () => {
    const p = parseEnv('A=1\nexport\nC="open\nD=$(pwd)/x\nE="x"y\nF=\'open\n', 's.env');
    expect(p.ok).toBe(false);
    expect(p.findings.map((f) => [f.code, f.line, f.column])).toEqual([
      ['parse/invalid-env-line', 2, 7],
      ['parse/invalid-env-line', 3, 3],
      ['parse/invalid-env-line', 4, 3],
      ['parse/invalid-env-line', 5, 6],
      ['parse/invalid-env-line', 6, 3],
    ]);
  });

  it('should read lines as shell users write them: export, single quotes, trailing comments, CRLF', () => {
    const text =
      'export RUN_ID=20261129T100000Z\r\nexport\tTASK_NAME="fix-login"  # the task\r\n' +
      'PLAN_PATH=\'docs/plan $1.md\'\r\nS1_DONE=1 # preflight\r\nNOTE="C:\\tmp\\x \\$HOME"\r\nHASH=a#b\r\n';
    const p = parseEnv(text, 's.env');
    expect(p.findings).toEqual([]);
    expect({ ...p.values }).toEqual({
      RUN_ID: '20261129T100000Z',
      TASK_NAME: 'fix-login',
      PLAN_PATH: 'docs/plan $1.md',
      S1_DONE: '1',
      NOTE: 'C:\\tmp\\x $HOME',
      HASH: 'a#b',
    });
    expect(p.sourceMap.locate('/RUN_ID')).toEqual({ line: 1, column: 15 });
    expect(p.sourceMap.locate('/TASK_NAME')).toEqual({ line: 2, column: 18 });
  });

  it('should keep $NAME and a braced $NAME in an unquoted value as written, as inside double quotes', () => {
    const braced = ['$', '{RUN_ROOT}'].join('');
    const p = parseEnv(
      `ARTIFACT_ROOT=$RUN_ROOT/artifacts\nLOCK_FILE=${braced}/run.lock\nX=a$\nY=$1\n`,
      's.env',
    );
    expect(p.values.ARTIFACT_ROOT).toBe('$RUN_ROOT/artifacts');
    expect(p.values.LOCK_FILE).toBe(`${braced}/run.lock`);
    expect(p.findings.map((f) => [f.line, f.column])).toEqual([
      [3, 4],
      [4, 3],
    ]);
  });

  it('should read several assignments on one line, as a shell does', () => {
    const p = parseEnv(
      'pid=4242 host=box user=ann timestamp=2026-11-29T10:00:00Z\nA="x y" B=\'z\' C= # note\n',
      'run.lock',
    );
    expect(p.findings).toEqual([]);
    expect({ ...p.values }).toEqual({
      pid: '4242',
      host: 'box',
      user: 'ann',
      timestamp: '2026-11-29T10:00:00Z',
      A: 'x y',
      B: 'z',
      C: '',
    });
    expect(p.sourceMap.locate('/user', 'key')).toEqual({ line: 1, column: 19 });
    expect(p.sourceMap.locate('/user')).toEqual({ line: 1, column: 24 });
  });

  it('should read an unquoted value with spaces whole and warn that a shell would not', () => {
    const p = parseEnv('STAGE_STATUS=in progress # note\n', 's.env');
    expect(p.ok).toBe(true);
    expect(p.values.STAGE_STATUS).toBe('in progress');
    expect(p.findings.map((f) => [f.code, f.severity, f.line, f.column])).toEqual([
      ['parse/unquoted-space', 'warning', 1, 14],
    ]);
  });

  it('should keep the last value of a repeated key, as a shell does, with a warning', () => {
    const p = parseEnv('A=1\nA=2\n', 's.env');
    expect(p.ok).toBe(true);
    expect(p.values.A).toBe('2');
    expect(p.sourceMap.locate('/A')).toEqual({ line: 2, column: 3 });
    expect(p.findings[0]).toMatchObject({ code: 'parse/repeated-env-key', severity: 'warning', line: 2 });
  });

  it('should report a NUL byte in a value, which a shell cannot hold, quoted or not', () => {
    for (const text of ['A="x\u0000y"\n', "A='\u0000'\n", 'A=x\u0000\n', 'A=x y\u0000z\n']) {
      const p = parseEnv(`OK=1\n${text}`, 's.env');
      expect(p.ok).toBe(false);
      expect(p.findings[0]).toMatchObject({ code: 'parse/invalid-env-line', line: 2, column: 3 });
      expect(p.findings[0]?.message).toContain('the value of A contains a NUL byte');
    }
  });

  it('should undo only the escapes a shell undoes inside double quotes, wherever they are', () => {
    const p = parseEnv('A="a\\\\b\\"c\\$d\\`e\\nf\\"" B=2\n', 's.env');
    expect(p.values.A).toBe('a\\b"c$d`e\\nf"');
    expect(p.values.B).toBe('2');
  });

  it('should name the first line of a key set many times (a map, not a search per line)', () => {
    const text = Array.from({ length: 2000 }, (_, i) => `K${i % 3}=${i}`).join('\n');
    const p = parseEnv(text, 's.env');
    expect(p.values.K0).toBe('1998');
    const repeated = p.findings.filter((f) => f.code === 'parse/repeated-env-key');
    // 1997 repeats: the first 100 listed, then one finding that counts the other 1897.
    expect(repeated).toHaveLength(101);
    expect(repeated[99]?.message).toContain('also on line 1)');
    expect(repeated[100]).toMatchObject({ line: 104 });
    expect(repeated[100]?.message).toBe(
      '1897 more parse/repeated-env-key from line 104 on (only the first 100 are listed)',
    );
  });

  it('should hold __proto__ as a plain key', () => {
    const p = parseEnv('__proto__=1\n', 's.env');
    expect(p.values['__proto__' as string]).toBe('1');
    expect(Object.getPrototypeOf(p.values)).toBeNull();
  });
});

describe('serializeEnv', () => {
  it('should sort keys and quote values', () => {
    expect(serializeEnv({ B: 'x"y', A: '1' }, ['run state'])).toBe('# run state\nA="1"\nB="x\\"y"\n');
  });

  it('should round-trip any values without newlines', () => {
    const key = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,10}$/);
    const value = fc.string({ unit: 'grapheme' }).filter((v) => !/[\r\n]/.test(v));
    fc.assert(
      fc.property(fc.dictionary(key, value), (values) => {
        const p = parseEnv(serializeEnv(values), 's.env');
        expect(p.findings).toEqual([]);
        expect({ ...p.values }).toEqual(values);
      }),
      fcParams(200),
    );
  });

  it('should never throw on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const p = parseEnv(text, 's.env');
        for (const f of p.findings) expect(f.line).toBeGreaterThanOrEqual(1);
      }),
      fcParams(300),
    );
  });
});
