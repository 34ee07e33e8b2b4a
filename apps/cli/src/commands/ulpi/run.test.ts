import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CkptError } from '@ckpt/core';
import { fcParams, tmpTree } from '@ckpt/test-utils';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isUlpiHelpRequest, optionValue } from './argv.js';
import { runUlpiArgv } from './run.js';

beforeEach(() => {
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The exit code a run ends with: 0, or the CkptError's code; anything else is rethrown (an internal error). */
function exitOf(args: string[]): number {
  try {
    return runUlpiArgv(args);
  } catch (e) {
    if (e instanceof CkptError) return e.exitCode;
    throw e;
  }
}

describe('optionValue', () => {
  it('should take the word after the first occurrence, and refuse a missing value or a flag as the value', () => {
    expect(optionValue(['--a', 'x', '--a', 'y'], '--a')).toBe('x');
    expect(optionValue(['--a', '-x'], '--a')).toBe('-x');
    expect(optionValue([], '--a', 'd')).toBe('d');
    expect(() => optionValue(['--a'], '--a')).toThrow('option --a is missing its value');
    expect(() => optionValue(['--a', '--b'], '--a')).toThrow('option --a is missing its value');
  });

  it('should treat only --help/-h/help first, or --help/-h right after a verb, as a help request', () => {
    expect(
      [['--help'], ['help'], ['unit', '-h'], ['unit', 'f.json', '--help'], []].map(isUlpiHelpRequest),
    ).toEqual([true, true, true, false, false]);
  });
});

describe('runUlpiArgv', () => {
  it('should never end in an internal error, whatever the document and the words', () => {
    const t = tmpTree();
    try {
      const file = join(t.dir, '.ulpi/runs/r.json');
      mkdirSync(join(t.dir, '.ulpi/runs'), { recursive: true });
      const unit = fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.record({
          status: fc.constantFrom('pending', 'done', 'blocked', 'dep_blocked', 5, null),
          dependsOn: fc.oneof(fc.array(fc.constantFrom('a', 'b', 'ghost')), fc.jsonValue({ maxDepth: 1 })),
        }),
      );
      const doc = fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.record(
          {
            schemaVersion: fc.jsonValue({ maxDepth: 1 }),
            status: fc.constantFrom('running', 'done', 'aborted', 7),
            units: fc.oneof(
              fc.dictionary(fc.constantFrom('a', 'b', '__proto__'), unit),
              fc.jsonValue({ maxDepth: 1 }),
            ),
            phases: fc.jsonValue({ maxDepth: 2 }),
            openItems: fc.jsonValue({ maxDepth: 2 }),
            resolvedItems: fc.jsonValue({ maxDepth: 2 }),
            pipeline: fc.jsonValue({ maxDepth: 3 }),
            requiredPhases: fc.jsonValue({ maxDepth: 1 }),
            finalValidation: fc.jsonValue({ maxDepth: 1 }),
          },
          { requiredKeys: [] },
        ),
      );
      const words = fc.constantFrom(
        ['unit', file, 'a', 'done', '--deps', 'b'],
        ['unit', file, 'b', 'in_progress'],
        ['phase', file, 'p', 'running'],
        ['get', file, '--summary'],
        ['get', file],
        ['resume', file],
        ['item', file, '--json', '[{"kind":"x"},"s",null]'],
        ['resolve', file, '--json', '["a",1]'],
        ['validation', file, 'green'],
        ['finalize', file, 'done'],
        ['finalize', file, 'needs_attention'],
        ['init', file, '--task', 't', '--units', 'a,b'],
        ['gc', join(t.dir, '.ulpi/runs'), '--keep-days', '0'],
      );
      fc.assert(
        fc.property(doc, words, (d, args) => {
          writeFileSync(file, JSON.stringify(d));
          expect([0, 1, 2]).toContain(exitOf([...args]));
        }),
        fcParams(300),
      );
    } finally {
      t.cleanup();
    }
  });
});
