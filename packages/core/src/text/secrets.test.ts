import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets, redactSecretsIn, redactText, secretInValue } from './secrets.js';
import { mapStrings } from './terminal-escape.js';

describe('redactSecrets', () => {
  it.each([
    ['token ghp_abcdefghijklmnopqrstuvwxyz0123 ok', 'token [REDACTED:github-token] ok'],
    ['password=hunter22 and more', 'password=[REDACTED:assignment] and more'],
    ['Authorization: Bearer abcdefghijklmnopqrstuvwxyz', 'Authorization: Bearer [REDACTED:bearer-token]'],
    ['postgres://admin:pa55@db.internal/app', 'postgres://admin:[REDACTED:url-credentials]@db.internal/app'],
    [
      'a sk-proj-abcdefghijklmnopqrstuvwx and AKIAIOSFODNN7EXAMPLE',
      'a [REDACTED:api-key] and [REDACTED:aws-key]',
    ],
    [
      '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\nafter',
      '[REDACTED:private-key]\nafter',
    ],
  ])('should redact %j', (text, shown) => {
    expect(redactSecrets(text)).toBe(shown);
    expect(redactSecrets(redactSecrets(text))).toBe(shown);
  });

  it('should leave ordinary text as it is', () => {
    for (const t of ['rotate the token in the vault', 'uses sk-learn', 'see https://example.com/docs'])
      expect(redactSecrets(t)).toBe(t);
  });

  it('should redact values deep in a document but not ids and paths, sharing clean parts', () => {
    const clean = { note: 'fine' };
    const doc = {
      id: 'token=abcdef',
      file: 'a.json',
      units: [{ result: 'key: sk-abcdefghijklmnopqrstuvwxyz' }],
      clean,
    };
    const out = redactSecretsIn(doc);
    expect(out.id).toBe('token=abcdef');
    expect(out.units[0]!.result).toBe('key: [REDACTED:api-key]');
    expect(out.clean).toBe(clean);
    expect(redactSecretsIn(clean)).toBe(clean);
  });
});

describe('deep documents', () => {
  it('should redact and find a secret nested twenty thousand levels deep without exhausting the stack', () => {
    let v: unknown = 'password=abcdef';
    for (let i = 0; i < 20_000; i++) v = i % 2 ? [v] : { k: v };
    let x = redactSecretsIn(v);
    for (let i = 0; i < 20_000; i++) x = Array.isArray(x) ? x[0] : (x as { k: unknown }).k;
    expect(x).toBe('password=[REDACTED:assignment]');
    expect(secretInValue(v)?.pattern.kind).toBe('assignment');
  });
});

describe('the memo of short texts', () => {
  const secretish = fc.constantFrom(
    'pwd=abc',
    'token=ghp_abcdefghijklmnopqrstuvwxyz0123',
    'Bearer abcdefghijklmnopqrstuvwxyz',
    'sk-abcdefghijklmnopqrstuvwxyz',
    'x://u:p@h',
    'AKIAIOSFODNN7EXAMPLE',
    'the key to it',
  );
  const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme-ascii', maxLength: 80 }), secretish);
  const names = new Set(['id', 'runId', 'dialect', 'root', 'file', 'path', 'code', 'pointer']);
  /** redactSecretsIn as it was before the memo: every string through the unmemoised redaction. */
  const reference = (v: unknown) =>
    mapStrings(v, (s, key) => (key !== undefined && names.has(key) ? s : redactText(s)));

  it('should give what the unmemoised redaction gives, on the first call and on every later one', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 20 }), (texts) => {
        for (const t of [...texts, ...texts]) expect(redactSecrets(t)).toBe(redactText(t));
      }),
    );
  });

  it('should still be right after the memo filled and was cleared', () => {
    for (let i = 0; i < 25_000; i++) redactSecrets(`ordinary text ${i}`);
    expect(redactSecrets('pwd=hunter22')).toBe('pwd=[REDACTED:assignment]');
    expect(redactSecrets('ordinary text 3')).toBe('ordinary text 3');
  });

  it('should redact any JSON-like value exactly as before', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(fc.oneof(text, fc.constantFrom('id', 'file', 'title', 'path')), tie('node'), {
          maxKeys: 4,
        }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(redactSecretsIn(v)).toEqual(reference(v));
      }),
    );
  });
});
