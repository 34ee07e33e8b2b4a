import { mapStrings } from './terminal-escape.js';

/** One secret pattern: a name people recognise, a short kind for redaction marks, and the expression. */
export interface SecretPattern {
  readonly name: string;
  readonly kind: string;
  /** Finds the secret; a named group `keep` is the part a redaction leaves standing (`password=`, `Bearer `). */
  readonly re: RegExp;
}

/**
 * What "secret-looking" means, decided by ckpt (the seeds leave it open), shared by every dialect: writers refuse
 * such text, outputs redact it. Token prefixes require a long enough tail so ordinary words (`sk-learn`, `ghp_`) do
 * not trip them.
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    name: 'private key block',
    kind: 'private-key',
    re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----)?/,
  },
  {
    name: 'GitHub token (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)',
    kind: 'github-token',
    re: /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/,
  },
  { name: 'OpenAI/Anthropic key (sk-...)', kind: 'api-key', re: /\bsk-[A-Za-z0-9_-]{20,}/ },
  {
    name: 'Stripe key (sk_live_, rk_live_, sk_test_...)',
    kind: 'stripe-key',
    re: /\b[rsp]k_(live|test)_[A-Za-z0-9]{16,}/,
  },
  { name: 'Slack token (xoxb-, xoxp-...)', kind: 'slack-token', re: /\bxox[abprse]-[A-Za-z0-9-]{10,}/ },
  { name: 'GitLab token (glpat-)', kind: 'gitlab-token', re: /\bglpat-[A-Za-z0-9_-]{20,}/ },
  { name: 'npm token (npm_)', kind: 'npm-token', re: /\bnpm_[A-Za-z0-9]{36}/ },
  { name: 'Hugging Face token (hf_)', kind: 'hf-token', re: /\bhf_[A-Za-z0-9]{30,}/ },
  { name: 'Google API key (AIza)', kind: 'google-key', re: /\bAIza[0-9A-Za-z_-]{35}/ },
  { name: 'AWS access key id (AKIA/ASIA)', kind: 'aws-key', re: /\b(AKIA|ASIA)[0-9A-Z]{16}\b/ },
  {
    name: 'JSON Web Token',
    kind: 'jwt',
    re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/,
  },
  { name: 'Bearer token', kind: 'bearer-token', re: /\b(?<keep>Bearer\s+)[A-Za-z0-9._~+/-]{20,}/i },
  {
    name: 'credentials in a URL (scheme://user:pass@)',
    kind: 'url-credentials',
    re: /(?<keep>[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:)[^\s/@]+(?=@)/i,
  },
  {
    name: 'secret assignment (password=, secret=, token=, api_key=...)',
    kind: 'assignment',
    re: /(?<![A-Za-z0-9])(?<keep>(password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|client[_-]?secret|private[_-]?key|aws_secret_access_key)\s*[=:]\s*["']?)[^\s"',;]{3,}/i,
  },
];

/** The patterns as one line for the documentation of the secret finding codes. */
export function describeSecretPatterns(): string {
  const assignment =
    'assignments of password, passwd, pwd, secret, token, api_key, access_key, client_secret, private_key or aws_secret_access_key with `=` or `:` to a value of 3+ characters';
  return [...SECRET_PATTERNS.slice(0, -1).map((p) => p.name), assignment].join('; ');
}

/**
 * A literal every secret pattern needs (case-insensitive, so it may only match more): the token prefixes, `://`,
 * `Bearer`, and a part of every assignment keyword (`passw`, `pwd`, `secret`, `token`, `key`). Most texts hold
 * none, and one scan then replaces the fourteen (secrets.test.ts checks it against the full list). `sk-` only at
 * a word's start, as its pattern has it: the kind `team/task-event`, in every report of a task event, would
 * otherwise send each report through ANY_SECRET (its first use compiles it: ~1-2 ms of a one-file run).
 */
const MAY_HOLD_SECRET =
  /-----BEGIN|gh[pousr]_|github_pat_|\bsk-|k_live_|k_test_|xox|glpat-|npm_|hf_|aiza|akia|asia|eyj|bearer|:\/\/|passw|pwd|secret|token|key/i;

/** The shortest text any pattern matches (`pwd=abc`): a shorter text never holds a secret. */
export const SHORTEST_SECRET = 7;

const mayHoldSecret = (text: string) => text.length >= SHORTEST_SECRET && MAY_HOLD_SECRET.test(text);

/** The first secret pattern the text matches, or undefined. */
export function secretPatternIn(text: string): SecretPattern | undefined {
  if (!mayHoldSecret(text)) return undefined;
  for (const p of SECRET_PATTERNS) if (p.re.test(text)) return p;
  return undefined;
}

/** The name of the first secret pattern the text matches, or undefined. */
export function secretIn(text: string): string | undefined {
  return secretPatternIn(text)?.name;
}

const GLOBAL = SECRET_PATTERNS.map((p) => ({ kind: p.kind, re: new RegExp(p.re.source, `${p.re.flags}g`) }));

/** The mark a redacted secret leaves: `[REDACTED:github-token]`. */
export const redactionMark = (kind: string) => `[REDACTED:${kind}]`;

/**
 * Every pattern in one case-insensitive alternation: it matches whenever one of them does (and sometimes more), so
 * one scan tells most texts that passed the literal pre-check (a `key` or a `token` in prose) that they hold none.
 */
const ANY_SECRET = new RegExp(
  SECRET_PATTERNS.map((p) => `(?:${p.re.source.replace(/\(\?<keep>/g, '(?:')})`).join('|'),
  'i',
);

/**
 * Results of redactSecrets for short texts: a RunView repeats a few dozen keys and statuses, titles and stage names
 * across 10,000 tasks (on the 100k-event run ~1.7M strings and keys, ~140k distinct). Bounded: cleared when full.
 */
const recent = new Map<string, string>();
const RECENT_MAX_LENGTH = 64;
const RECENT_ENTRIES = 20_000;

/** The text with every secret-looking value replaced by its mark (the keyword before an assignment is kept). */
export function redactSecrets(text: string): string {
  if (text.length < SHORTEST_SECRET) return text;
  if (text.length > RECENT_MAX_LENGTH) return redactText(text);
  let out = recent.get(text);
  if (out === undefined) {
    out = redactText(text);
    if (recent.size >= RECENT_ENTRIES) recent.clear();
    recent.set(text, out);
  }
  return out;
}

/** redactSecrets without the memo of short texts (its reference; secrets.test.ts compares them). */
export function redactText(text: string): string {
  if (!mayHoldSecret(text) || !ANY_SECRET.test(text)) return text;
  let out = text;
  for (const { kind, re } of GLOBAL)
    out = out.replace(re, (...args) => {
      const groups = args.at(-1) as Record<string, string | undefined> | undefined;
      return `${groups?.keep ?? ''}${redactionMark(kind)}`;
    });
  return out;
}

/**
 * Keys whose values name things rather than hold content (ids, paths, codes): redacting them would break links
 * and lookups, and a secret there is reported by `validate` instead.
 */
const NAME_KEYS: ReadonlySet<string> = new Set([
  'id',
  'runId',
  'dialect',
  'root',
  'file',
  'path',
  'code',
  'pointer',
]);

/**
 * A copy of a JSON-like value (a RunView, a document, a parsed file) with every secret-looking value redacted; the
 * value itself when it holds none. The one place outputs that show file contents are made safe to share.
 */
export function redactSecretsIn<T>(value: T): T {
  return mapStrings(value, redactField);
}

/** What `redactSecretsIn` does to one string, told the key it sits under. */
function redactField(s: string, key: string | undefined): string {
  return key !== undefined && NAME_KEYS.has(key) ? s : redactSecrets(s);
}

/**
 * The refusal of a free-text value a writer was asked to store, or undefined when it holds no secret: it names the
 * field and the pattern kind, never the value (a refusal must not echo what it refuses).
 */
export function secretRefusal(field: string, text: string): string | undefined {
  const p = secretPatternIn(text);
  return p ? `${field} looks like it holds a secret (${p.name}); nothing was written` : undefined;
}

/**
 * The first string in a JSON-like value (keys too) that looks like a secret: where it is (a JSON Pointer) and its
 * pattern. Iterative, so any nesting depth is safe.
 */
export function secretInValue(
  value: unknown,
): { readonly pointer: string; readonly pattern: SecretPattern } | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [v, pointer] = stack.pop()!;
    if (typeof v === 'string') {
      const pattern = secretPatternIn(v);
      if (pattern) return { pointer, pattern };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    const entries = Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, child] = entries[i]!;
      const at = `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const keyPattern = secretPatternIn(k);
      if (keyPattern) return { pointer: at, pattern: keyPattern };
      stack.push([child, at]);
    }
  }
  return undefined;
}

/**
 * {@link redactSecretsIn} for values built again and again from the same parts (the project index derives a run
 * again after one of its files changed, and keeps the views of its unchanged tasks): a plain object or a long array
 * found in `memo` is not walked again, and every one walked is recorded there (an array with the kind of key it sat
 * under, which decides for its strings). The same result as `redactSecretsIn`, for values whose parts never change
 * once made.
 */
export function redactSecretsInShared<T>(value: T, memo: WeakMap<object, unknown>): T {
  const walk = (v: unknown, key: string | undefined, depth: number): unknown => {
    if (typeof v === 'string') return redactField(v, key);
    if (v === null || typeof v !== 'object') return v;
    // Deep values (never a RunView's shape) take the walk that cannot exhaust the stack.
    if (depth > 64) return mapStrings(v, redactField, key);
    if (Array.isArray(v)) {
      // An array's strings are told the array's key: a long one is kept per kind of key (a name or not).
      const named = key !== undefined && NAME_KEYS.has(key);
      const kept =
        v.length >= 64 ? (memo.get(v) as { named?: unknown; other?: unknown } | undefined) : undefined;
      const hit = named ? kept?.named : kept?.other;
      if (hit !== undefined) return hit;
      let out: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const c = walk(v[i], key, depth + 1);
        if (c === v[i]) continue;
        out ??= v.slice();
        out[i] = c;
      }
      const done = out ?? v;
      if (v.length >= 64) {
        const slot = kept ?? {};
        if (named) slot.named = done;
        else slot.other = done;
        if (!kept) memo.set(v, slot);
      }
      return done;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return v;
    const known = memo.get(v);
    if (known !== undefined) return known;
    const src = v as Record<string, unknown>;
    let out: Record<string, unknown> | undefined;
    for (const k in src) {
      if (!Object.hasOwn(src, k)) continue;
      const k2 = redactSecrets(k);
      const c = walk(src[k], k, depth + 1);
      if (k2 === k && c === src[k]) continue;
      out ??= { ...src };
      if (k2 !== k) delete out[k];
      out[k2] = c;
    }
    const done = out ?? v;
    memo.set(v, done);
    return done;
  };
  return walk(value, undefined, 0) as T;
}
