import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CrashError, faultyFileSystem, fcParams, tmpTree } from '@ckpt/test-utils';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { appendDurable, atomicReplace, isTempName, writeOnce } from './atomic.js';
import { nodeFileSystem } from './file-system.js';

const trees: { cleanup(): void }[] = [];
afterEach(() => trees.splice(0).forEach((t) => t.cleanup()));
const tree = (files: Record<string, string> = {}) => {
  const t = tmpTree(files);
  trees.push(t);
  return t;
};

describe('atomicReplace', () => {
  it('should replace the document and leave no temp file', () => {
    const t = tree({ 'doc.json': 'old' });
    atomicReplace(t.path('doc.json'), 'new');
    expect(readFileSync(t.path('doc.json'), 'utf8')).toBe('new');
    expect(readdirSync(t.dir)).toEqual(['doc.json']);
  });

  it('should leave the old or the new document after a crash at any step', () => {
    const t = tree();
    const target = join(t.dir, 'doc.json');
    const steps = (() => {
      writeFileSync(target, 'old');
      const counting = faultyFileSystem(nodeFileSystem);
      atomicReplace(target, 'new', { fs: counting });
      return counting.steps;
    })();
    expect(steps).toBeGreaterThanOrEqual(6);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: steps }),
        fc.constantFrom<'crash' | 'error'>('crash', 'error'),
        (failAt, mode) => {
          writeFileSync(target, 'old');
          const fs = faultyFileSystem(nodeFileSystem, { failAt, mode });
          try {
            atomicReplace(target, 'new', { fs });
          } catch (e) {
            if (mode === 'crash') expect(e).toBeInstanceOf(CrashError);
          }
          expect(['old', 'new']).toContain(readFileSync(target, 'utf8'));
          for (const name of readdirSync(t.dir)) if (name !== 'doc.json') expect(isTempName(name)).toBe(true);
          for (const name of readdirSync(t.dir))
            if (name !== 'doc.json') nodeFileSystem.unlinkSync(join(t.dir, name));
        },
      ),
      fcParams(50),
    );
  });
});

describe('writeOnce', () => {
  it('should publish a new name and refuse to overwrite an existing one', () => {
    const t = tree();
    const target = t.path('e.json');
    expect(writeOnce(target, 'first')).toBe(true);
    expect(writeOnce(target, 'second')).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('first');
    expect(readdirSync(t.dir)).toEqual(['e.json']);
  });
});

describe('appendDurable', () => {
  it('should append whole lines', () => {
    const t = tree();
    appendDurable(t.path('log.jsonl'), '{"a":1}\n');
    appendDurable(t.path('log.jsonl'), '{"a":2}\n');
    expect(readFileSync(t.path('log.jsonl'), 'utf8')).toBe('{"a":1}\n{"a":2}\n');
  });
});
