import { fcParams } from '@ckpt/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonSourceMap, parseJson } from './json.js';
import { scanJson } from './json-scanner.js';

describe('parseJson', () => {
  it('should parse valid JSON and locate values and keys by pointer', () => {
    const text = '{\n  "a": 1,\n  "b": {\n    "c": [true, "x"]\n  }\n}\n';
    const p = parseJson(text, 'f.json');
    expect(p.ok).toBe(true);
    expect(p.value).toEqual({ a: 1, b: { c: [true, 'x'] } });
    expect(p.sourceMap.locate('/a')).toMatchObject({ line: 2, column: 8 });
    expect(p.sourceMap.locate('/a', 'key')).toMatchObject({ line: 2, column: 3 });
    expect(p.sourceMap.locate('/b/c/1')).toMatchObject({ line: 4, column: 17 });
    expect(p.sourceMap.locate('/b/missing')).toMatchObject({ line: 3, column: 8 });
  });

  it('should report a syntax error at its line and column', () => {
    const p = parseJson('{\n  "a": 1\n  "b": 2\n}', 'f.json');
    expect(p.ok).toBe(false);
    expect(p.findings).toHaveLength(1);
    expect(p.findings[0]).toMatchObject({ code: 'parse/invalid-json', line: 3, column: 3, file: 'f.json' });
  });

  it('should report a truncated file at its end', () => {
    const p = parseJson('{\n  "a": "xy', 'f.json');
    expect(p.findings[0]).toMatchObject({ code: 'parse/invalid-json', line: 2 });
  });

  it('should report trailing commas', () => {
    const p = parseJson('{"a": [1, 2,]}', 'f.json');
    expect(p.findings[0]!.message).toContain('trailing comma');
  });

  it('should report every duplicated key at its second occurrence', () => {
    const p = parseJson('{\n  "status": "failed",\n  "status": "completed"\n}', 'f.json');
    expect(p.ok).toBe(false);
    expect(p.findings).toEqual([
      expect.objectContaining({ code: 'parse/duplicate-key', line: 3, column: 3, pointer: '/status' }),
    ]);
  });

  it('should not mistake colons inside strings for members', () => {
    const p = parseJson('{"a": "x: y", "b": "\\"c\\": 1"}', 'f.json');
    expect(p.ok).toBe(true);
  });

  it('should report a duplicate key exactly when the full scanner finds one (colons, escapes, nesting)', () => {
    // Keys from a tiny set make duplicates common; strings with ':' and escapes exercise the fast count.
    const str = fc.constantFrom('a', 'b', 'a:b', ':', 'x\\u003a', 'q\\"', '');
    const obj = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        str.map((s) => `"${s}"`),
        fc.integer().map(String),
        fc.array(tie('value'), { maxLength: 3 }).map((xs) => `[${xs.join(',')}]`),
        tie('object'),
      ),
      object: fc
        .array(fc.tuple(str, tie('value')), { maxLength: 4 })
        .map((ms) => `{${ms.map(([k, v]) => `"${k}": ${v}`).join(', ')}}`),
    })).object;
    fc.assert(
      fc.property(obj, (text) => {
        const dupes = scanJson(text).duplicates.length;
        const p = parseJson(text, 'f.json');
        expect(p.findings.filter((f) => f.code === 'parse/duplicate-key')).toHaveLength(dupes);
      }),
      fcParams(300),
    );
  });

  it('should report an empty file', () => {
    expect(parseJson('  \n', 'f.json').findings[0]!.code).toBe('parse/empty-file');
  });

  it('should report nesting deeper than the cap instead of overflowing', () => {
    const deep = `${'['.repeat(100000)}${']'.repeat(100000)}`;
    const p = parseJson(deep, 'f.json');
    expect(p.ok).toBe(false);
    expect(p.findings[0]!.code).toBe('parse/too-deep');
  });

  it('should keep __proto__ as data without touching prototypes', () => {
    const p = parseJson('{"__proto__": {"polluted": true}}', 'f.json');
    expect(p.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('should report a number beyond a double (1e400) as out of range, not read it as Infinity silently', () => {
    const p = parseJson('{\n  "attempt": 1e400,\n  "x": [1, -2e999]\n}', 'f.json');
    expect(p.ok).toBe(false);
    expect(p.findings.map((f) => [f.code, f.pointer, f.line])).toEqual([
      ['parse/number-out-of-range', '/attempt', 2],
      ['parse/number-out-of-range', '/x/1', 3],
    ]);
    expect(p.findings[0]?.message).toContain('out of range');
    expect(parseJson('{"a": 1.7976931348623157e308, "b": 1e-400}', 'f.json').ok).toBe(true);
  });

  it('should never throw and agree with JSON.parse on any string', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.json().map((j) => j.slice(0, j.length - 1)),
          fc.json(),
        ),
        (text) => {
          const p = parseJson(text, 'f.json');
          let native: unknown;
          let ok = true;
          try {
            native = JSON.parse(text);
          } catch {
            ok = false;
          }
          if (!ok || text.trim() === '') expect(p.findings.length).toBeGreaterThan(0);
          else expect(p.value).toEqual(native);
          for (const f of p.findings) {
            expect(f.line).toBeGreaterThanOrEqual(1);
            expect(f.column).toBeGreaterThanOrEqual(1);
          }
        },
      ),
      fcParams(300),
    );
  });

  it('should place a finding on the whole document where the scanner does, without scanning', () => {
    const space = fc
      .array(fc.constantFrom(' ', '\n', '\t', '\r', '\r\n'), { maxLength: 4 })
      .map((a) => a.join(''));
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2, '\t'), space, space, (v, indent, before, after) => {
        const text = `${before}${JSON.stringify(v, null, indent)}${after}`;
        const p = parseJson(text, 'f.json');
        const fast = p.sourceMap.locate('');
        // Nothing was scanned for it: a fresh map scans, and gives the same place.
        expect((p.sourceMap as unknown as { scanned?: unknown }).scanned).toBeUndefined();
        expect(new JsonSourceMap(text).locate('')).toEqual(fast);
      }),
      fcParams(300),
    );
    // A document too deep to read is placed by the scanner (at 1:1: it stops inside).
    const deep = `${'['.repeat(300)}${']'.repeat(300)}`;
    expect(parseJson(deep, 'f.json').findings[0]).toMatchObject({
      code: 'parse/too-deep',
      line: 1,
      column: 1,
    });
  });
});
