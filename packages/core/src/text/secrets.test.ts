import { describe, expect, it } from 'vitest';
import { redactSecrets, redactSecretsIn, secretInValue } from './secrets.js';

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
