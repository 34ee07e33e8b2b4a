import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventFileNameIs, parseEventFileName } from './names.js';

const alnum = fc.constantFrom(...'0123456789abcXYZa');
const digits = (min: number, max: number) =>
  fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((a) => a.join(''));
const validTime = fc.tuple(digits(8, 8), digits(6, 6), digits(0, 9)).map(([d, t, f]) => `${d}T${t}${f}Z`);
const anyTime = fc
  .tuple(digits(7, 9), fc.constantFrom('T', 't'), digits(5, 7), digits(0, 10), fc.constantFrom('Z', 'z', ''))
  .map((p) => p.join(''));
// Mostly names that may pass, so that both answers are exercised.
const time = fc.oneof({ weight: 4, arbitrary: validTime }, { weight: 1, arbitrary: anyTime });
const event = fc.constantFrom('task_started', 'task_finished', 'task_other', '');
// Tasks made of the pieces a name is cut at, so that the expression's choices are exercised.
const task = fc
  .array(fc.constantFrom('-', 'a', '1', '-a1-', '-a-2', 'x', '.json', '\n', 'abcd', '-a'), { maxLength: 6 })
  .map((a) => a.join(''));
const attempt = fc.oneof(fc.integer({ min: -20, max: 20 }), fc.constantFrom(1.5, 1e21, -0, 7));
const token = fc.array(alnum, { minLength: 2, maxLength: 34 }).map((a) => a.join(''));

describe('eventFileNameIs', () => {
  it('is true only for a name parseEventFileName reads as exactly that event, task and attempt', () => {
    let passed = 0;
    fc.assert(
      fc.property(
        time,
        event,
        task,
        attempt,
        token,
        fc.constantFrom('.json', '.json', '.json', '.jsonx', ''),
        fc.constantFrom('', '/runs/r/events/'),
        (t, e, k, a, tok, ext, dir) => {
          const name = `${t}-${e}-${k}-a${a}-${tok}${ext}`;
          if (!eventFileNameIs(dir + name, dir.length, e, k, a)) return;
          passed++;
          const parsed = parseEventFileName(name);
          expect(parsed).toBeDefined();
          // The rules compare with ===, for which -0 is 0.
          expect([parsed!.event, parsed!.task, parsed!.attempt === a]).toEqual([e, k, true]);
        },
      ),
      { numRuns: 3000 },
    );
    expect(passed).toBeGreaterThan(100);
  });

  it('is true for the names ckpt writes, with the body they were written from', () => {
    const dir = '/p/.team/runs/20261028T131016577000Z-0dc5ec/events/';
    for (const [name, e, k, a] of [
      [
        '20261028T131041186000Z-task_started-design-fe-20261028T1310Z-000-a1-e87800.json',
        'task_started',
        'design-fe-20261028T1310Z-000',
        1,
      ],
      ['20261028T131041Z-task_finished-t-a1-a12-AbCd.json', 'task_finished', 't-a1', 12],
      ['20261028T131041123456789Z-task_finished-x-a-3-abcd.json', 'task_finished', 'x', -3],
    ] as const) {
      expect(eventFileNameIs(dir + name, dir.length, e, k, a)).toBe(true);
      expect(parseEventFileName(name)).toMatchObject({ event: e, task: k, attempt: a });
    }
    // What it leaves to the expression: another attempt, a name with a ten-digit fraction, a short token.
    expect(eventFileNameIs('20261028T131041Z-task_started-t-a01-abcd.json', 0, 'task_started', 't', 1)).toBe(
      false,
    );
    expect(
      eventFileNameIs('20261028T1310411234567890Z-task_started-t-a1-abcd.json', 0, 'task_started', 't', 1),
    ).toBe(false);
    expect(eventFileNameIs('20261028T131041Z-task_started-t-a1-abc.json', 0, 'task_started', 't', 1)).toBe(
      false,
    );
  });
});
