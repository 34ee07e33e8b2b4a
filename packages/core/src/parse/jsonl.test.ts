import { describe, expect, it } from 'vitest';
import { parseJsonl } from './jsonl.js';

describe('parseJsonl', () => {
  it('should parse complete lines and report a torn tail without parsing it', () => {
    const p = parseJsonl('{"v":1}\n{"v":2}\n{"v":', 'e.jsonl');
    expect(p.lines.map((l) => l.parsed.value)).toEqual([{ v: 1 }, { v: 2 }]);
    expect(p.tornTail).toBe('{"v":');
    expect(p.findings).toEqual([
      expect.objectContaining({ code: 'parse/torn-jsonl-tail', line: 3, severity: 'warning' }),
    ]);
  });

  it('should report a corrupt complete line with its line number', () => {
    const p = parseJsonl('{"v":1}\n{oops}\n{"v":3}\n', 'e.jsonl');
    expect(p.findings).toEqual([expect.objectContaining({ code: 'parse/invalid-jsonl-line', line: 2 })]);
    expect(p.lines).toHaveLength(3);
  });
});
