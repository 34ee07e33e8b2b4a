import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
type Format = { validate: (s: string) => boolean };
const ours = require('../scripts/formats.cjs') as Record<string, Format>;
const theirs = require('ajv-formats/dist/formats').fullFormats as Record<string, Format>;

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CHARS = [
  '0',
  '1',
  '2',
  '3',
  '5',
  '6',
  '9',
  'T',
  't',
  'Z',
  'z',
  ' ',
  '\u00a0',
  '.',
  ':',
  '-',
  '+',
  'x',
  '\n',
];

describe('the validators’ formats (scripts/formats.cjs)', () => {
  it('should hold every format of ajv-formats', () => {
    expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs).sort());
  });

  it('should tell date-time exactly as ajv-formats does', () => {
    const next = random(13);
    const pick = <T>(a: readonly T[]) => a[Math.floor(next() * a.length)]!;
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    let accepted = 0;
    for (let i = 0; i < 60_000; i++) {
      // A timestamp with fields around their limits (leap years, day 31 of short months, hour 24, second 60)...
      let s =
        `${pad(pick([1900, 2000, 2023, 2024, 2026, 2100, 0, 9999]), 4)}-${pad(pick([0, 1, 2, 4, 12, 13, 1, 6, 10]))}-` +
        `${pad(pick([0, 1, 28, 29, 30, 31, 32, 1, 15, 20]))}${pick(['T', 'T', 't', ' '])}${pad(pick([0, 9, 23, 24, 9, 13]))}:` +
        `${pad(pick([0, 59, 60, 30, 10]))}:${pad(pick([0, 30, 59, 60, 61, 30, 10]))}${pick(['', '', '.5', '.123456', '.'])}` +
        `${pick(['Z', 'Z', 'z', '', '+01:00', '-23:59', '+2400', '+05'])}`;
      // ...and, now and then, one character replaced, inserted or dropped.
      const edit = Math.floor(next() * 4);
      const at = Math.floor(next() * (s.length + 1));
      if (edit === 1) s = s.slice(0, at) + pick(CHARS) + s.slice(at + 1);
      else if (edit === 2) s = s.slice(0, at) + pick(CHARS) + s.slice(at);
      else if (edit === 3) s = s.slice(0, at) + s.slice(at + 1);
      const want = theirs['date-time']!.validate(s);
      if (ours['date-time']!.validate(s) !== want) expect.fail(`date-time differs on ${JSON.stringify(s)}`);
      if (want) accepted++;
    }
    // Both answers were asked for, many times.
    expect(accepted).toBeGreaterThan(2_000);
    expect(accepted).toBeLessThan(55_000);
  });
});
