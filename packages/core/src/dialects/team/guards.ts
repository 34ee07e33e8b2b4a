import { secretIn } from '../../text/secrets.js';

// The secret table is shared by every dialect (writers refuse, outputs redact): it lives in text/secrets.ts.
export { describeSecretPatterns, SECRET_PATTERNS, type SecretPattern, secretIn } from '../../text/secrets.js';

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
  if (path.indexOf('\0') !== -1) return 'the path holds a NUL byte';
  // `/` or `\` first, or a drive letter (`c | 32` folds A-Z onto a-z, and nothing else onto them) and `:`.
  const c = path.charCodeAt(0);
  const lower = c | 32;
  if (c === 47 || c === 92 || (lower >= 97 && lower <= 122 && path.charCodeAt(1) === 58))
    return 'the path is absolute';
  // Only a path holding `..` can have it as a segment: most do not, and are not split.
  if (path.indexOf('..') !== -1 && path.split(/[/\\]/).includes('..'))
    return 'the path escapes the project with `..`';
  // Code points never outnumber UTF-16 units: a path that short is within the limit.
  if (path.length > LIMITS.path && charLength(path) > LIMITS.path)
    return `the path is longer than ${LIMITS.path} characters`;
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
