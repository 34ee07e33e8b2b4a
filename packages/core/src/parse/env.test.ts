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
    const p = parseEnv('A=1\nexport B=2\nC="open\nD=a b\nE="x\\n"\n', 's.env');
    expect(p.ok).toBe(false);
    expect(p.findings.map((f) => [f.code, f.line])).toEqual([
      ['parse/invalid-env-line', 2],
      ['parse/invalid-env-line', 3],
      ['parse/invalid-env-line', 4],
      ['parse/invalid-env-line', 5],
    ]);
    expect(p.findings[2]!.column).toBe(4);
  });

  it('should report a duplicate key', () => {
    const p = parseEnv('A=1\nA=2\n', 's.env');
    expect(p.findings[0]).toMatchObject({ code: 'parse/duplicate-key', line: 2 });
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
