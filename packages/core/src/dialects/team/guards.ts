/** Length limits of team text values, in characters (Unicode code points). */
export const LIMITS = {
  evidence: 1000,
  next: 500,
  note: 500,
  reason: 500,
  /** task, stage, agent, profile, by. */
  name: 128,
  path: 1024,
} as const;

/** One secret pattern: a name people recognise and the expression that finds it. */
export interface SecretPattern {
  readonly name: string;
  readonly re: RegExp;
}

/**
 * What "secret-looking" means, decided by ckpt (the seed leaves it open). Token prefixes require a long enough
 * tail so ordinary words (`sk-learn`, `ghp_`) do not trip them.
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  { name: 'private key block', re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/ },
  {
    name: 'GitHub token (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)',
    re: /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/,
  },
  { name: 'OpenAI/Anthropic key (sk-...)', re: /\bsk-[A-Za-z0-9_-]{20,}/ },
  { name: 'Stripe key (sk_live_, rk_live_, sk_test_...)', re: /\b[rsp]k_(live|test)_[A-Za-z0-9]{16,}/ },
  { name: 'Slack token (xoxb-, xoxp-...)', re: /\bxox[abprse]-[A-Za-z0-9-]{10,}/ },
  { name: 'GitLab token (glpat-)', re: /\bglpat-[A-Za-z0-9_-]{20,}/ },
  { name: 'npm token (npm_)', re: /\bnpm_[A-Za-z0-9]{36}/ },
  { name: 'Hugging Face token (hf_)', re: /\bhf_[A-Za-z0-9]{30,}/ },
  { name: 'Google API key (AIza)', re: /\bAIza[0-9A-Za-z_-]{35}/ },
  { name: 'AWS access key id (AKIA/ASIA)', re: /\b(AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { name: 'JSON Web Token', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/ },
  { name: 'Bearer token', re: /\bBearer\s+[A-Za-z0-9._~+/-]{20,}/i },
  { name: 'credentials in a URL (scheme://user:pass@)', re: /[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:[^\s/@]+@/i },
  {
    name: 'secret assignment (password=, secret=, token=, api_key=...)',
    re: /(?<![A-Za-z0-9])(password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|client[_-]?secret|private[_-]?key|aws_secret_access_key)\s*[=:]\s*["']?[^\s"',;]{3,}/i,
  },
];

/** The patterns as one line for the documentation of `team/secret-in-text`. */
export function describeSecretPatterns(): string {
  const assignment =
    'assignments of password, passwd, pwd, secret, token, api_key, access_key, client_secret, private_key or aws_secret_access_key with `=` or `:` to a value of 3+ characters';
  return [...SECRET_PATTERNS.slice(0, -1).map((p) => p.name), assignment].join('; ');
}

/**
 * A literal every secret pattern needs (case-insensitive, so it may only match more): the token prefixes, `://`,
 * `Bearer`, and a part of every assignment keyword (`passw`, `pwd`, `secret`, `token`, `key`). Most texts hold
 * none, and one scan then replaces the fourteen (guards.test.ts checks it against the full list).
 */
const MAY_HOLD_SECRET =
  /-----BEGIN|gh[pousr]_|github_pat_|sk-|k_live_|k_test_|xox|glpat-|npm_|hf_|aiza|akia|asia|eyj|bearer|:\/\/|passw|pwd|secret|token|key/i;

/** The shortest text any pattern matches (`pwd=abc`). */
const SHORTEST_SECRET = 7;

/** The name of the first secret pattern the text matches, or undefined. */
export function secretIn(text: string): string | undefined {
  if (text.length < SHORTEST_SECRET || !MAY_HOLD_SECRET.test(text)) return undefined;
  for (const p of SECRET_PATTERNS) if (p.re.test(text)) return p.name;
  return undefined;
}

/** Length in code points (a surrogate pair counts once). */
export function charLength(text: string): number {
  // Code points never outnumber UTF-16 units; without a surrogate the two counts are equal.
  if (!/[\uD800-\uDFFF]/.test(text)) return text.length;
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Why a path is not a safe project-relative path, or undefined when it is: empty, absolute (`/`, `\`, a drive
 * letter), a `..` segment, a NUL byte, or too long.
 */
export function pathProblem(path: string): string | undefined {
  if (path.length === 0) return 'the path is empty';
  if (path.includes('\0')) return 'the path holds a NUL byte';
  if (/^[/\\]/.test(path) || /^[A-Za-z]:/.test(path)) return 'the path is absolute';
  if (path.split(/[/\\]/).includes('..')) return 'the path escapes the project with `..`';
  if (charLength(path) > LIMITS.path) return `the path is longer than ${LIMITS.path} characters`;
  return undefined;
}

/** Names that end up in file names (task, stage) must be file-name safe. */
export const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Why a free-text value would be refused (secret or length), or undefined. */
export function textProblem(field: keyof typeof LIMITS, text: string): string | undefined {
  const secret = secretIn(text);
  if (secret) return `${field} looks like it holds a secret (${secret})`;
  const len = charLength(text);
  if (len > LIMITS[field]) return `${field} is ${len} characters long; the limit is ${LIMITS[field]}`;
  return undefined;
}
