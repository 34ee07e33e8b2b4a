import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fcParams, tmpTree } from '@ckpt/test-utils';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { CkptError } from '../../errors.js';
import { readUlpiDoc } from './store.js';
import {
  addUlpiItems,
  initUlpiRun,
  recordUlpiValidation,
  resolveUlpiItemsInFile,
  setUlpiPhase,
  setUlpiUnit,
} from './write.js';
import { finalizeUlpiRun, gcUlpiRuns, migrateUlpiFile } from './write-run.js';

const T0 = Date.UTC(2026, 10, 29, 7, 13, 0, 456);
const now = () => T0;
let trees: { cleanup(): void }[] = [];
afterEach(() => {
  for (const t of trees) t.cleanup();
  trees = [];
});
function runFile(content?: string): string {
  const t = tmpTree(content === undefined ? {} : { '.ulpi/runs/r.json': content });
  trees.push(t);
  return t.path('.ulpi/runs/r.json');
}

function refusal(fn: () => unknown): CkptError {
  try {
    fn();
  } catch (e) {
    return e as CkptError;
  }
  throw new Error('expected a refusal');
}

/** Asserts the call is refused with `code` and leaves the file byte-identical. */
function expectRefused(file: string, code: number, fn: () => unknown): void {
  const before = readFileSync(file);
  const e = refusal(fn);
  expect(e).toBeInstanceOf(CkptError);
  expect(e.exitCode).toBe(code);
  expect(readFileSync(file).equals(before)).toBe(true);
}

describe('initUlpiRun', () => {
  it('should write the original key order, stamps without ms, 2-space indent and a trailing newline', () => {
    const f = runFile();
    expect(
      initUlpiRun(
        f,
        { task: 'demo', units: ['a'], requiredPhases: ['build'], requireValidation: true },
        { now },
      ),
    ).toBe('run-2026-11-29-071300Z');
    expect(readFileSync(f, 'utf8')).toBe(
      `${JSON.stringify(
        {
          schemaVersion: 2,
          id: 'run-2026-11-29-071300Z',
          task: 'demo',
          status: 'running',
          createdAt: '2026-11-29T07:13:00Z',
          updatedAt: '2026-11-29T07:13:00Z',
          phases: {},
          units: {
            a: {
              status: 'pending',
              dependsOn: [],
              note: '',
              createdAt: '2026-11-29T07:13:00Z',
              updatedAt: '2026-11-29T07:13:00Z',
            },
          },
          openItems: [],
          resolvedItems: [],
          result: null,
          requiredPhases: ['build'],
          requireValidation: true,
        },
        null,
        2,
      )}\n`,
    );
  });

  it('should refuse (exit 2) to re-init a live run and allow a done or aborted one', () => {
    const f = runFile();
    initUlpiRun(f, { task: 't', units: ['a'] }, { now });
    for (const status of ['running', 'needs_attention', 'initializing']) {
      const doc = readUlpiDoc(f);
      doc.status = status;
      writeFileSync(f, JSON.stringify(doc));
      expectRefused(f, 2, () => initUlpiRun(f, { task: 't2' }));
    }
    finalizeUlpiRun(f, 'aborted');
    expect(initUlpiRun(f, { task: 't2', id: 'again' })).toBe('again');
  });

  it('should refuse (exit 1) an invalid launch, a missing task or a unit id with whitespace before touching disk', () => {
    const t = tmpTree();
    trees.push(t);
    const f = join(t.dir, 'deep', 'r.json');
    for (const o of [
      { task: 't', launch: [] },
      { task: 't', launch: { scriptPath: '' } },
      { task: 't', launch: { scriptPath: 'x', args: 1 } },
      { task: '' },
      { task: 't', units: ['a b'] },
    ])
      expect(refusal(() => initUlpiRun(f, o)).exitCode).toBe(1);
    expect(() => readFileSync(f)).toThrow();
  });
});

describe('writer refusals', () => {
  it('should refuse to demote a done unit, byte-identical', () => {
    const f = runFile();
    initUlpiRun(f, { task: 't', units: ['a'] }, { now });
    setUlpiUnit(f, 'a', 'done');
    for (const s of ['pending', 'in_progress', 'blocked', 'dep_blocked'])
      expectRefused(f, 2, () => setUlpiUnit(f, 'a', s));
    expectRefused(f, 1, () => setUlpiUnit(f, 'a,b', 'done'));
    expectRefused(f, 1, () => setUlpiUnit(f, 'a', 'finished'));
  });

  it('should refuse finalize done for every open fact, byte-identical', () => {
    const f = runFile();
    initUlpiRun(f, { task: 't', units: ['a'], requiredPhases: ['review'], requireValidation: true }, { now });
    const steps: [string, () => void][] = [
      ['unit', () => setUlpiUnit(f, 'a', 'done')],
      ['blocked phase', () => setUlpiPhase(f, 'review', 'done')],
      ['items', () => resolveUlpiItemsInFile(f, addUlpiItems(f, { kind: 'flake' }))],
      ['validation', () => recordUlpiValidation(f, 'ok')],
    ];
    setUlpiPhase(f, 'build', 'blocked');
    addUlpiItems(f, { kind: 'flake' });
    expectRefused(f, 2, () => finalizeUlpiRun(f, 'done'));
    for (const [, step] of steps) {
      step();
      if (step === steps[1]![1]) setUlpiPhase(f, 'build', 'done');
      const doc = readUlpiDoc(f);
      if (doc.finalValidation === undefined) expectRefused(f, 2, () => finalizeUlpiRun(f, 'done'));
    }
    finalizeUlpiRun(f, 'done', { result: 'ok' });
    const doc = readUlpiDoc(f);
    expect([doc.status, doc.result, typeof doc.finishedAt]).toEqual(['done', 'ok', 'string']);
  });

  it('should refuse finalize done for a coordinator pipeline without a valid coverage receipt', () => {
    const f = runFile();
    initUlpiRun(f, { task: 't' }, { now });
    const doc = readUlpiDoc(f);
    doc.pipeline = {
      integrationRef: 'refs/heads/int',
      scopeCoverage: { total: 2, covered: ['S1'], dropped: [], uncovered: [], errors: [] },
    };
    writeFileSync(f, JSON.stringify(doc, null, 2));
    expectRefused(f, 2, () => finalizeUlpiRun(f, 'done'));
  });
});

describe('addUlpiItems', () => {
  it('should give stable ids, upsert in place keeping the first at, and keep bare strings', () => {
    const f = runFile();
    initUlpiRun(f, { task: 't' }, { now });
    const [id] = addUlpiItems(f, { severity: 'major', kind: 'flake' }, { now });
    expect(id).toMatch(/^f-[0-9a-f]{12}$/);
    expect(
      addUlpiItems(f, { kind: 'flake', severity: 'major', at: 'x' }, { now: () => T0 + 60_000 }),
    ).toEqual([id]);
    addUlpiItems(f, ['bare', { id: 'mine', detail: 'd' }]);
    const items = readUlpiDoc(f).openItems as Record<string, unknown>[];
    expect(items.length).toBe(3);
    expect(items[0]).toEqual({ at: 'x', kind: 'flake', severity: 'major', id });
    expect(items[1]).toBe('bare');
    expect(resolveUlpiItemsInFile(f, ['mine', 'nope'])).toEqual(['mine']);
  });
});

const v1Doc = fc.record(
  {
    schemaVersion: fc.constant(1),
    id: fc.string({ minLength: 1, maxLength: 8 }),
    task: fc.string({ maxLength: 10 }),
    status: fc.constantFrom('running', 'needs_attention', 'done'),
    updatedAt: fc.constant('2026-08-12T15:37:48Z'),
    units: fc.dictionary(
      fc.stringMatching(/^[a-z]{1,4}$/),
      fc.record({
        status: fc.constantFrom('pending', 'done', 'blocked'),
        dependsOn: fc.array(fc.stringMatching(/^[a-z]{1,4}$/), { maxLength: 2 }),
      }),
      { maxKeys: 4 },
    ),
    openItems: fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }),
    currentPhase: fc.string({ maxLength: 5 }),
  },
  { requiredKeys: ['schemaVersion', 'id', 'status', 'units', 'updatedAt'] },
);

describe('migration', () => {
  it('should never change a v1 file on read, upgrade it add-only on one mutating write, and not again', () => {
    fc.assert(
      fc.property(v1Doc, fc.integer({ min: 0, max: 4 }), (doc, indent) => {
        const text = `${JSON.stringify(doc, null, indent)}${indent ? '\n' : ''}`;
        const f = runFile(text);
        readUlpiDoc(f);
        migrateUlpiFile(f);
        expect(readFileSync(f, 'utf8')).toBe(text);
        setUlpiPhase(f, 'p', 'pending', { now });
        const after = readUlpiDoc(f);
        const expected: Record<string, unknown> = { ...doc, schemaVersion: 2 };
        expected.openItems ??= [];
        expected.resolvedItems ??= [];
        expected.updatedAt = '2026-11-29T07:13:00Z';
        expected.phases = { p: { status: 'pending', updatedAt: '2026-11-29T07:13:00Z' } };
        expect(after).toEqual(expected);
        expect(Object.keys(after)).toEqual(Object.keys(expected));
        const once = readFileSync(f, 'utf8');
        setUlpiPhase(f, 'p', 'pending', { now });
        expect(readFileSync(f, 'utf8')).toBe(once);
        expect(migrateUlpiFile(f, { write: true }).changed).toBe(false);
      }),
      fcParams(60),
    );
  });
});

describe('stamps under the lock', () => {
  it('should stamp updatedAt when the lock is acquired, not when the writer started waiting', () => {
    const f = runFile();
    initUlpiRun(f, { task: 't', units: ['a'] }, { now });
    let clock = now();
    const started = clock;
    mkdirSync(`${f}.lock`);
    // Another writer holds the lock for 3 s, then releases it.
    const sleep = () => {
      clock += 1000;
      if (clock - started >= 3000 && existsSync(`${f}.lock`)) rmdirSync(`${f}.lock`);
    };
    setUlpiUnit(
      f,
      'a',
      'in_progress',
      {},
      { now: () => clock, lock: { now: () => clock, sleep, staleMs: 60_000 } },
    );
    const doc = readUlpiDoc(f);
    expect(doc.updatedAt).toBe(new Date(started + 3000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    expect((doc.units as Record<string, { startedAt: string }>).a!.startedAt).toBe(doc.updatedAt);
  });
});

describe('gcUlpiRuns', () => {
  it('should archive old terminal runs and never a running one', () => {
    const t = tmpTree({
      'runs/old-done.json': JSON.stringify({ status: 'done', updatedAt: '2026-01-01T00:00:00Z' }),
      'runs/old-running.json': JSON.stringify({ status: 'running', updatedAt: '2026-01-01T00:00:00Z' }),
      'runs/new-done.json': JSON.stringify({ status: 'done', updatedAt: '2026-11-29T00:00:00Z' }),
      'runs/bad.json': '{',
      'runs/null.json': 'null',
    });
    trees.push(t);
    expect(gcUlpiRuns(t.path('runs'), { keepDays: 7 }, { now })).toEqual({
      archived: 1,
      dir: t.path('runs'),
      skipped: [{ file: t.path('runs/null.json'), why: 'holds null, not a status document' }],
    });
    expect(() => readFileSync(t.path('runs/archive/old-done.json'))).not.toThrow();
    expect(() => readFileSync(t.path('runs/null.json'))).not.toThrow();
    expect(refusal(() => gcUlpiRuns(t.path('runs'), { keepDays: -1 })).exitCode).toBe(1);
  });
});
