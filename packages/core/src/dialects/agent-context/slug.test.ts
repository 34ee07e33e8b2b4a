import { describe, expect, it } from 'vitest';
import { taskSlug } from './slug.js';

describe('taskSlug', () => {
  it('should lowercase, decompose accents and join words with "-"', () => {
    expect(taskSlug('Fix login timeout bug')).toBe('fix-login-timeout-bug');
    // NFKD splits é into e + a combining accent, which is outside [a-z0-9]: the original's ids keep that seam.
    expect(taskSlug('  Café: élan!! ')).toBe('cafe-e-lan');
  });

  it('should cut at 56 characters', () => {
    expect(taskSlug('a'.repeat(80))).toHaveLength(56);
  });

  it('should fall back to task-<base36 hash> when nothing is left', () => {
    const id = taskSlug('日本語');
    expect(id).toMatch(/^task-[0-9a-z]+$/);
    expect(taskSlug('日本語')).toBe(id);
    expect(taskSlug('中文')).not.toBe(id);
  });
});
