import { describe, expect, it } from 'vitest';
import { hasNoText, valueText } from './value-text.js';

describe('valueText', () => {
  it('should be String(value) whenever String does not throw', () => {
    for (const v of [1, 'a', null, undefined, true, [1, 'b'], { a: 1 }, { valueOf: 0 }, [[2]]])
      expect(valueText(v)).toBe(String(v));
  });

  it('should show a value String cannot convert as its JSON text, and say so', () => {
    expect(valueText({ toString: 0 })).toBe('{"toString":0}');
    expect(valueText([1, { toString: 0 }])).toBe('[1,{"toString":0}]');
    expect(valueText(Object.create(null))).toBe('{}');
    expect([{ toString: 0 }, [{ toString: 0 }], { a: 1 }, 3].map(hasNoText)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
