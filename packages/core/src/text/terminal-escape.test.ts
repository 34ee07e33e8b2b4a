import { fcParams } from '@ckpt/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  escapeTerminal,
  escapeTerminalLines,
  forTerminal,
  hasTerminalControl,
  stringifyJson,
} from './terminal-escape.js';

describe('escapeTerminal', () => {
  it.each([
    ['\x1b]0;pwned\x07', '\\x1b]0;pwned\\x07'],
    ['a\nb\rc\td', 'a\\nb\\rc\\td'],
    ['\x9b31m', '\\x9b31m'],
    ['del\x7f', 'del\\x7f'],
    ['evil\u202egnp.exe', 'evil\\u202egnp.exe'],
    ['plain café ✓', 'plain café ✓'],
  ])('should show %j as %j', (input, shown) => {
    expect(escapeTerminal(input)).toBe(shown);
  });

  it('should keep line feeds and tabs in escapeTerminalLines only', () => {
    expect(escapeTerminalLines('a\n\tb\x1b[2J')).toBe('a\n\tb\\x1b[2J');
  });

  it('should escape every string of a value, keys too, and share what did not change', () => {
    const clean = { n: 1, list: ['ok'] };
    const value = { file: 'x\x1b[31m.json', clean, ['k\x07']: true, command: "rm -- 'a\nb'" };
    const out = forTerminal(value);
    expect(out.file).toBe('x\\x1b[31m.json');
    expect(out.clean).toBe(clean);
    expect(Object.keys(out)).toContain('k\\x07');
    expect(out.command).toBe("rm -- 'a\nb'");
    expect(forTerminal(clean)).toBe(clean);
  });

  it('should write DEL, C1 and bidi controls as \\u escapes in JSON (same value)', () => {
    const v = { s: 'a\x7f\x9b\u202e\x1b' };
    const text = stringifyJson(v);
    expect(hasTerminalControl(text.replace(/\n/g, ''))).toBe(false);
    expect(JSON.parse(text)).toEqual(v);
  });

  it('should never leave a control character in its output', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(hasTerminalControl(escapeTerminal(s))).toBe(false);
      }),
      fcParams(),
    );
  });

  it('should write a string as the escaping of its whole JSON text would (its plain form: itself in quotes)', () => {
    const escaped = (v: string) =>
      JSON.stringify(v).replace(
        /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      );
    for (let c = 0; c < 0x10000; c++) {
      const s = `a${String.fromCharCode(c)}b`;
      expect(stringifyJson(s)).toBe(escaped(s));
    }
    for (const s of ['', '\u{1f600}', 'x\u{1f600}y', '\ud83d', '\ude00x', 'runs/a/events/x.json'])
      expect(stringifyJson(s)).toBe(escaped(s));
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(stringifyJson(s)).toBe(escaped(s));
      }),
      fcParams(),
    );
  });

  it('should never change the JSON value it writes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (v, s) => {
        const value = { v, s };
        const text = stringifyJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(hasTerminalControl(text.replace(/\n/g, ''))).toBe(false);
      }),
      fcParams(),
    );
  });
});
