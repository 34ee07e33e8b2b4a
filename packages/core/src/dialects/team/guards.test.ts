import { fcParams } from '@ckpt/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charLength, LIMITS, pathProblem, SECRET_PATTERNS, secretIn, textProblem } from './guards.js';

/** The plain definition: the first pattern of the list that matches. */
const slowSecretIn = (text: string) => SECRET_PATTERNS.find((p) => p.re.test(text))?.name;

describe('secretIn', () => {
  it.each([
    '-----BEGIN RSA PRIVATE KEY-----',
    '-----BEGIN OPENSSH PRIVATE KEY-----',
    'token ghp_abcdefghijklmnopqrstuvwxyz0123',
    'github_pat_11ABCDEFG0123456789_abcdefghij',
    'sk-proj-abcdefghijklmnopqrstuvwx',
    'sk_live_abcdefghijklmnop1234',
    'xoxb-1234567890-abcdefghij',
    'glpat-abcdefghijklmnopqrst',
    'AKIAIOSFODNN7EXAMPLE',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    'password=hunter22',
    'PASSWORD: "correct horse"',
    'db_password=abc123',
    'secret=s3cr3t',
    'token=abcd',
    'api_key = 12345',
    'Authorization: Bearer abcdefghijklmnopqrstuvwxyz',
    'postgres://admin:pa55@db.internal/app',
  ])('should flag %s', (text) => {
    expect(secretIn(text)).toBeDefined();
  });

  it.each([
    'unit tests: 3 pass',
    'wait for be',
    'rotate the token in the vault, then retry',
    'max_tokens: 4096 tokens used',
    'uses sk-learn for the model',
    'see https://example.com/docs',
    'password reset flow implemented',
  ])('should let ordinary text pass: %s', (text) => {
    expect(secretIn(text)).toBeUndefined();
  });

  it('should find exactly what the full pattern list finds (the quick pre-check never hides a match)', () => {
    const parts = [
      ...[
        '-----BEGIN ',
        'RSA PRIVATE KEY-----',
        'ghp_',
        'gho_',
        'github_pat_',
        'sk-',
        'sk_live_',
        'rk_test_',
      ],
      ...[
        'xoxb-',
        'glpat-',
        'npm_',
        'hf_',
        'AIza',
        'AKIA',
        'ASIA',
        'eyJ',
        '.',
        'Bearer ',
        'bEaReR ',
        'https://',
      ],
      ...[
        'u:p@',
        'pass',
        'Password',
        'passwd',
        'pwd',
        'secret',
        'TOKEN',
        'api_key',
        'access-key',
        'Private_Key',
      ],
      ...['=', ':', ' ', '"', "'", 'abcdefghij', 'ABCDEFGHIJKLMNOP', '0123456789', '_-', '😀', 'x'],
    ];
    const text = fc.array(fc.constantFrom(...parts), { maxLength: 12 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ maxLength: 40 })), (t) => {
        expect(secretIn(t)).toBe(slowSecretIn(t));
      }),
      fcParams(3000),
    );
  });
});

describe('pathProblem', () => {
  it('should accept project-relative paths', () => {
    for (const p of ['.team/07-build.md', 'src/a..b.ts', 'docs/x/y.md'])
      expect(pathProblem(p)).toBeUndefined();
  });

  it('should refuse absolute, escaping, empty and over-long paths', () => {
    expect(pathProblem('/etc/passwd')).toMatch(/absolute/);
    expect(pathProblem('\\\\server\\share')).toMatch(/absolute/);
    expect(pathProblem('C:\\x')).toMatch(/absolute/);
    expect(pathProblem('../x')).toMatch(/escapes/);
    expect(pathProblem('a/../../x')).toMatch(/escapes/);
    expect(pathProblem('a\\..\\x')).toMatch(/escapes/);
    expect(pathProblem('')).toMatch(/empty/);
    expect(pathProblem('a\0b')).toMatch(/NUL/);
    expect(pathProblem('a'.repeat(LIMITS.path + 1))).toMatch(/longer/);
  });
});

describe('textProblem', () => {
  it('should count code points, not UTF-16 units', () => {
    expect(charLength('😀😀')).toBe(2);
    expect(charLength('a\uD800b')).toBe(3);
    expect(charLength('plain')).toBe(5);
    expect(textProblem('next', '😀'.repeat(LIMITS.next))).toBeUndefined();
    expect(textProblem('next', '😀'.repeat(LIMITS.next + 1))).toMatch(/limit is 500/);
  });
});
