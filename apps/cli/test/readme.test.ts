// Every `$ ` example in the README runs as written (from the repository root) and prints what the README shows.
import { describe, expect, it } from 'vitest';
import {
  checkReadme,
  HOW_TO_UPDATE,
  matches,
  normalise,
  parseExamples,
  updatedShown,
  // @ts-expect-error: a plain ES module script, no types
} from '../scripts/readme-examples.mjs';

describe('the README examples', () => {
  it('should print what the README shows', () => {
    const problems: string[] = checkReadme();
    if (problems.length > 0) expect.fail(`${problems.join('\n\n')}\n\n${HOW_TO_UPDATE}`);
  });
});

describe('parseExamples', () => {
  it('should take each `$ ` line of a fenced block with the lines under it, up to the next command', () => {
    const text = ['x', '```', '$ a', 'out 1', '', '$ b', '```', '$ not in a block', '```sh', 'plain'].join(
      '\n',
    );
    const ex = parseExamples(text);
    expect(
      ex.map((e: { command: string; shown: string[]; line: number }) => [e.line, e.command, e.shown]),
    ).toEqual([
      [3, 'a', ['out 1']],
      [6, 'b', []],
    ]);
  });
});

describe('matches', () => {
  it('should accept left-out lines (`…`) and lines cut short (`text…`), and nothing else', () => {
    const printed = ['head', 'one', 'two', 'a long line', 'tail'];
    expect(matches(['head', '…', 'tail'], printed)).toBe(true);
    expect(matches(['head', 'one', 'two', 'a long…', 'tail'], printed)).toBe(true);
    expect(matches(['head', '…', 'a long line', 'tail'], printed)).toBe(true);
    expect(matches(['head', 'tail'], printed)).toBe(false);
    expect(matches(['head', '…', 'other', 'tail'], printed)).toBe(false);
    expect(matches(['head', 'one', 'two', 'a short…', 'tail'], printed)).toBe(false);
  });

  it('should compare times exactly (the examples run at the fixed CKPT_NOW), ignoring trailing spaces only', () => {
    expect(normalise('! ulpi  add-oauth  running  2/5  1h ago   ')).toBe(
      '! ulpi  add-oauth  running  2/5  1h ago',
    );
    expect(normalise('2/5  55m ago')).not.toBe(normalise('2/5  3d ago'));
  });
});

describe('updatedShown', () => {
  it('should rewrite the shown lines from printed ones, keeping the elisions where they were', () => {
    expect(updatedShown(['h', '…', 't'], ['H', '1', '2', 'T'])).toEqual(['H', '…', 'T']);
    expect(updatedShown(['abc…'], ['xyz123'])).toEqual(['xyz…']);
    expect(updatedShown(['a', 'b'], ['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
  });
});
