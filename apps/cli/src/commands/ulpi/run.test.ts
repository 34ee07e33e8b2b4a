import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  it('should answer, never end in an internal error, when a value cannot be made text ({"toString":0})', () => {
    const t = tmpTree();
    try {
      const file = join(t.dir, '.ulpi/runs/r.json');
      mkdirSync(join(t.dir, '.ulpi/runs'), { recursive: true });
      const bad = { toString: 0 };
      const base = () => ({
        schemaVersion: 2,
        status: 'running',
        units: { a: { status: 'pending', dependsOn: ['b'] }, b: { status: 'done' } },
        phases: { p: { status: 'done' } },
        requiredPhases: ['p'],
        finalValidation: { status: 'green' },
        openItems: [],
        resolvedItems: [],
        updatedAt: '2026-11-30T10:00:00Z',
      });
      const docs: [string, Record<string, unknown>][] = [
        ['schemaVersion', { ...base(), schemaVersion: bad }],
        ['schemaVersion (array)', { ...base(), schemaVersion: [bad] }],
        ['dependsOn', { ...base(), units: { a: { status: 'pending', dependsOn: [bad, [bad]] } } }],
        ['requiredPhases', { ...base(), requiredPhases: [bad] }],
        ['finalValidation.status', { ...base(), finalValidation: { status: bad } }],
        ['updatedAt', { ...base(), updatedAt: bad }],
        ['status', { ...base(), status: bad }],
      ];
      const verbs = [
        ['unit', file, 'a', 'done'],
        ['phase', file, 'p', 'running'],
        ['get', file, '--summary'],
        ['get', file],
        ['resume', file],
        ['item', file, '--json', '[{"kind":"x"}]'],
        ['validation', file, 'green'],
        ['finalize', file, 'done'],
        ['gc', join(t.dir, '.ulpi/runs'), '--keep-days', '0'],
      ];
      for (const [what, d] of docs)
        for (const args of verbs) {
          const text = JSON.stringify(d);
          writeFileSync(file, text);
          const code = exitOf([...args]);
          expect([0, 1, 2], `${what}: ${args[0]}`).toContain(code);
          // A mutating verb stops (exit 1, file unchanged) where checkpoint.mjs throws its TypeError.
          if (
            what.startsWith('schemaVersion') &&
            ['unit', 'phase', 'item', 'validation'].includes(args[0]!)
          ) {
            expect(code, `${what}: ${args[0]}`).toBe(1);
            expect(readFileSync(file, 'utf8')).toBe(text);
          }
        }
    } finally {
      t.cleanup();
    }
  });

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
