import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { taskSlug } from './slug.js';

const fixtures = resolve(import.meta.dirname, '../../../../../test-fixtures/agent-context');

describe('taskSlug', () => {
  it('should lowercase, decompose accents and join words with "-"', () => {
    expect(taskSlug('Fix login timeout bug')).toBe('fix-login-timeout-bug');
    // NFKD splits é into e + a combining accent, which is outside [a-z0-9]: the original's ids keep that seam.
    expect(taskSlug('  Café: élan!! ')).toBe('cafe-e-lan');
  });

  it('should cut at 56 characters', () => {
    expect(taskSlug('a'.repeat(80))).toHaveLength(56);
  });

  it('should fall back to task-<base36 hash> when nothing is left, with the ids the original gives', () => {
    // Recorded from opencode-plusplus 0.1.1 (`opencode-plusplus run <text>`, Code-Agent-plusplus eec292c).
    expect(taskSlug('日本語')).toBe('task-fflhz');
    expect(taskSlug('中文')).toBe('task-dure');
    expect(taskSlug('!!!')).toBe('task-pa9');
    expect(taskSlug('🚀 ✨')).toBe('task-voged');
  });

  it('should give the id of every task state the real original wrote (test-fixtures/agent-context/recorded-*)', () => {
    const states = readdirSync(fixtures)
      .filter((d) => d.startsWith('recorded-'))
      .flatMap((d) =>
        readdirSync(join(fixtures, d, '.agent-context/runs')).map((id) =>
          JSON.parse(readFileSync(join(fixtures, d, '.agent-context/runs', id, 'state.json'), 'utf8')),
        ),
      ) as { task: string; taskId: string }[];
    expect(states.length).toBeGreaterThanOrEqual(12);
    for (const s of states) expect(taskSlug(s.task), s.task).toBe(s.taskId);
  });
});
