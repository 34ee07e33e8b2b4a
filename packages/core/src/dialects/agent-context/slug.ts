/** Longest task id OpenCode++ writes. */
export const TASK_ID_MAX = 56;

/**
 * The task id OpenCode++ derives from a task text, which names `.agent-context/runs/<task-id>/`: NFKD, lowercase,
 * every run of characters outside `[a-z0-9]` becomes one `-`, leading and trailing `-` are trimmed, then the id
 * is cut to 56 characters. A text with nothing left (only punctuation, or only non-Latin letters) gets
 * `task-<base36 hash>` with the original's hash (`hashTask`: 31·h + the first UTF-16 unit of each code point, in 32
 * bits, then its absolute value; `src/outputs/task-run.ts` of opencode-plusplus 0.1.1, `src/core/task-id.ts` later;
 * `日本語` → `task-fflhz`, recorded from 0.1.1).
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
  let hash = 0;
  for (const char of text) hash = ((hash << 5) - hash + char.charCodeAt(0)) | 0;
  return `task-${Math.abs(hash).toString(36)}`;
}
