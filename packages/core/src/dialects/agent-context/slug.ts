import { createHash } from '../../util/crypto.js';

/** Longest task id OpenCode++ writes. */
export const TASK_ID_MAX = 56;

/**
 * The task id OpenCode++ derives from a task text, which names `.agent-context/runs/<task-id>/`: NFKD, lowercase,
 * every run of characters outside `[a-z0-9]` becomes one `-`, leading and trailing `-` are trimmed, then the id
 * is cut to 56 characters. A text with nothing left (only punctuation, or only non-Latin letters) gets
 * `task-<base36 hash>`; the hash is ckpt's choice (the first 40 bits of the text's sha256), since the original's
 * is not documented.
 *
 * @example
 * ```ts
 * taskSlug('Fix login timeout bug'); // 'fix-login-timeout-bug'
 * taskSlug('Café: élan!');          // 'cafe-e-lan' (NFKD splits é; the accent becomes a seam)
 * ```
 */
export function taskSlug(text: string): string {
  const slug = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, TASK_ID_MAX);
  if (slug) return slug;
  const hex = createHash('sha256').update(text).digest('hex').slice(0, 10);
  return `task-${Number.parseInt(hex, 16).toString(36)}`;
}
