import { describe, expect, it } from 'vitest';
import { eventFileNameIs, parseEventFileName } from './names.js';

/** What eventFileNameIs must answer: parseEventFileName's fields compared as the rules compare them. */
function parsedIs(name: string, event: string, task: string, attempt: number): boolean {
  const p = parseEventFileName(name);
  return p !== undefined && p.event === event && p.task === task && p.attempt === attempt;
}

describe('eventFileNameIs', () => {
  it('should say true exactly when parseEventFileName agrees, on names and bodies that are tricky to split', () => {
    const times = [
      '20261028T131016Z',
      '20261028T131016577943Z',
      '2026102T131016Z',
      '20261028T131016577943123456Z',
    ];
    const events = ['task_started', 'task_finished', 'task_', 'started'];
    const tasks = ['build-fe', 'x', 'x-a1', 'x-a-1', 'a', '-a', 'x-a', 'x\nz', 'x-a1-a2', ''];
    const attempts = ['1', '2', '007', '0', '-0', '-1', '--1', '12345678901234567890', '1a', ''];
    const tokens = ['29eddb', 'ab', 'AZaz09', 'a-b1'];
    const bodyTasks = [...tasks, 'x-a1-a2-x', 'build'];
    const bodyAttempts = [1, 2, 7, 0, -0, -1, 12, 1.5, 12345678901234567000, Number.NaN];
    const wrong: string[] = [];
    let agreed = 0;
    let checked = 0;
    for (const time of times)
      for (const ev of events)
        for (const task of tasks)
          for (const a of attempts)
            for (const token of tokens) {
              const name = `${time}-${ev}-${task}-a${a}-${token}.json`;
              for (const bodyEvent of ['task_started', 'task_finished', 'task_'])
                for (const bodyTask of bodyTasks)
                  for (const bodyAttempt of bodyAttempts) {
                    // Attempts of more than 15 digits are left to the parse (false: the caller parses the name).
                    const want = a.length <= 16 && parsedIs(name, bodyEvent, bodyTask, bodyAttempt);
                    if (eventFileNameIs(name, bodyEvent, bodyTask, bodyAttempt) !== want)
                      wrong.push(`${name} ${bodyEvent} ${bodyTask} ${bodyAttempt}`);
                    checked++;
                    if (want) agreed++;
                  }
            }
    expect(wrong).toEqual([]);
    // Both answers occur (the comparison is not vacuous).
    expect(agreed).toBeGreaterThan(100);
    expect(checked - agreed).toBeGreaterThan(100);
  });

  it('should say false for a name that is not an event file name', () => {
    expect(eventFileNameIs('run.json', 'task_started', 'x', 1)).toBe(false);
    expect(eventFileNameIs('20261028T131016Z-task_started-x-a1-tok1.json.tmp', 'task_started', 'x', 1)).toBe(
      false,
    );
    expect(eventFileNameIs('20261028T131016Z-task_started-x-a1-tok1.json', 'task_started', 'x', 1)).toBe(
      true,
    );
  });
});
