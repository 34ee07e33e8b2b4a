import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
type Length = (s: string) => number;
const ours = require('../scripts/ucs2length.cjs') as Length & { default: Length };
const theirs = (require('ajv/dist/runtime/ucs2length') as { default: Length }).default;

const same = (s: string) => {
  expect(ours(s)).toBe(theirs(s));
  expect(ours.default(s)).toBe(theirs(s));
};

describe('ucs2length (the precompiled validators’ minLength/maxLength)', () => {
  it('is ajv’s for every single UTF-16 code unit, alone and between ASCII', () => {
    for (let c = 0; c <= 0xffff; c++) {
      const u = String.fromCharCode(c);
      for (const s of [u, `a${u}`, `${u}b`, `a${u}b`, `${u}${u}`]) {
        const a = theirs(s);
        if (ours(s) !== a) expect({ c, s, ours: ours(s) }).toEqual({ c, s, ours: a });
      }
    }
  });

  it('counts a surrogate pair once at every edge of both ranges, and a lone surrogate as one', () => {
    const highs = [0xd7ff, 0xd800, 0xd801, 0xdbfe, 0xdbff, 0xdc00];
    const lows = [0xdbff, 0xdc00, 0xdc01, 0xdffe, 0xdfff, 0xe000];
    for (const h of highs)
      for (const l of lows) {
        const pair = String.fromCharCode(h, l);
        for (const s of [pair, `x${pair}`, `${pair}y`, `${pair}${pair}`, `${pair}${String.fromCharCode(h)}`])
          same(s);
      }
    expect(ours('\u{1F600}')).toBe(1);
    expect(ours('a\u{10000}\u{10FFFF}b')).toBe(4);
    expect(ours('\uD800')).toBe(1);
    expect(ours('\uDC00\uD800')).toBe(2);
    expect(ours('\uD800\uD800\uDC00')).toBe(2);
    expect(ours('')).toBe(0);
    expect(ours('plain ascii')).toBe(11);
  });

  it('is ajv’s for random strings (fast-check: code units, code points, mixed)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (s) => ours(s) === theirs(s)),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 32 }), (s) => ours(s) === theirs(s)),
      { numRuns: 2000 },
    );
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      fc.integer({ min: 0xd7fe, max: 0xe001 }).map((c) => String.fromCharCode(c)),
      fc.constantFrom('a', '\u00e9', '\u{1F600}'),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (units) => {
        const s = units.join('');
        return ours(s) === theirs(s);
      }),
      { numRuns: 5000 },
    );
  });
});
