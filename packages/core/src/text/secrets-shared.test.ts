import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecretsIn, redactSecretsInShared } from './secrets.js';

/** Strings that hold secrets, or nearly do, and keys that name things (kept as written) or hold content. */
const text = fc.oneof(
  fc.constantFrom(
    'password=hunter2hunter2',
    'token: abcdefghijklmnop',
    'Bearer abcdefghijklmnopqrstuvwxyz012345',
    'see https://user:pa55word@example.com/x',
    'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    'a key to the door',
    'plain words',
    '',
  ),
  fc.string({ maxLength: 12 }),
);
const key = fc.constantFrom(
  'id',
  'path',
  'file',
  'root',
  'note',
  'evidence',
  'password=abc1234',
  'units',
  'x',
);

const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.integer(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('redactSecretsInShared', () => {
  it('should give what redactSecretsIn gives, again when parts are shared with an earlier value', () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        const memo = new WeakMap<object, unknown>();
        expect(redactSecretsInShared(a, memo)).toEqual(redactSecretsIn(a));
        // A second value built from parts of the first (as a run derived again keeps its unchanged units), and
        // the same parts under a key that names things, whose strings are kept as written.
        const both = { units: [a, b], path: [a], again: { file: a } };
        expect(redactSecretsInShared(both, memo)).toEqual(redactSecretsIn(both));
        expect(redactSecretsInShared(a, memo)).toEqual(redactSecretsIn(a));
      }),
      { numRuns: 300 },
    );
  });

  it('should redact a long array by the key it sits under, also when it was redacted before under another', () => {
    fc.assert(
      fc.property(
        fc.array(json, { minLength: 64, maxLength: 80 }),
        fc.array(text, { minLength: 64, maxLength: 80 }),
        (objects, strings) => {
          const memo = new WeakMap<object, unknown>();
          for (const value of [
            { units: strings, path: strings, list: objects },
            { path: strings, units: [strings], file: objects },
            { root: [strings, objects], notes: strings },
          ])
            expect(redactSecretsInShared(value, memo)).toEqual(redactSecretsIn(value));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('should keep objects that hold no secret, and give the same redacted object for the same part', () => {
    const memo = new WeakMap<object, unknown>();
    const clean = { id: 'a', evidence: 'all good' };
    const secret = { id: 'b', evidence: 'password=hunter2hunter2' };
    const first = redactSecretsInShared({ units: [clean, secret] }, memo);
    const second = redactSecretsInShared({ units: [clean, secret], more: 1 }, memo);
    expect(first.units[0]).toBe(clean);
    expect(first.units[1]).not.toBe(secret);
    expect(first.units[1]).toEqual({ id: 'b', evidence: 'password=[REDACTED:assignment]' });
    expect(second.units[1]).toBe(first.units[1]);
  });
});
