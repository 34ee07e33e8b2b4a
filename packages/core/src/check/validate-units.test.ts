import { cpSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolIdleWorkers, poolRelease, poolThreads, warmPool, warmPoolLoaded } from '../pool/pool.js';
import { collectFiles } from './collect-files.js';
import {
  type LargeInput,
  VALIDATE_BRIEF_FILES,
  VALIDATE_BRIEF_UNITS,
  VALIDATE_MIN_UNITS_PER_THREAD,
  VALIDATE_MIN_UNITS_PER_THREAD_STARTED,
  type ValidateOptions,
  validateCollected,
} from './validate-files.js';

// A run directory is the unit of work (checked and written out in one piece, the root's own rules waiting for
// all its runs). Compared with the same paths checked file by file (no units: every file one by one, then each
// root's rules over the whole root), one thread and the pool, on a tree made to put other entries between and
// inside runs in report order. Pooled runs use core's built worker: build core first.

const sample = resolve(import.meta.dirname, '../../../../test-fixtures/sample-project');
const serial: ValidateOptions['pool'] = { threads: 1 };
const pooled: ValidateOptions['pool'] = { threads: 2, minItemsPerThread: 1 };

function report(paths: string[], cwd: string, units: boolean, opts: ValidateOptions) {
  const stream = validateCollected(collectFiles(paths, cwd, { units }), opts);
  const files = [...stream.files];
  return JSON.stringify({ files, summary: stream.summary });
}

describe('validate by run: the same report as file by file', () => {
  let dir: string;
  let event: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ckpt-units-'));
    cpSync(sample, dir, { recursive: true });
    const runs = join(dir, '.team', 'runs');
    const [older, newer] = readdirSync(runs).filter((n) => n !== 'current');
    // Runs whose names sort around each other's files: `x` < `x-y` < `x.json` < `x/...` in report order.
    for (const name of ['x', 'x-y', 'x.json', 'current-not', 'zz'])
      cpSync(join(runs, older!), join(runs, name), { recursive: true });
    writeFileSync(join(runs, 'x-y.json'), '{}');
    // Names with a line feed (the pool's inputs and results separate names with NUL).
    cpSync(join(runs, older!), join(runs, 'n\nl'), { recursive: true });
    writeFileSync(join(runs, 'x', 'events', 'a\nb.json'), '{}');
    // `current` names the older run (current-not-newest), a temp file left in the root (it sorts first) and in a
    // run, an empty run (interrupted start-run), a run without run.json, duplicated terminal events.
    writeFileSync(join(runs, 'current'), `${older}\n`);
    writeFileSync(join(runs, '.current.ckpt-tmp-1-aa'), 'x');
    writeFileSync(join(runs, 'x', 'events', '.e.json.ckpt-tmp-2-bb'), 'x');
    mkdirSync(join(runs, 'empty'));
    rmSync(join(runs, 'zz', 'run.json'));
    const events = join(runs, newer!, 'events');
    const finished = readdirSync(events).find((n) => n.includes('task_finished'))!;
    cpSync(join(events, finished), join(events, finished.replace(/-([0-9a-f]{6})\.json$/, '-$1ff.json')));
    renameSync(join(runs, 'x.json', 'run.json'), join(runs, 'x.json', 'run.json.bak'));
    event = join('.team', 'runs', 'x', 'events', readdirSync(join(runs, 'x', 'events'))[0]!);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should really start workers for the pooled runs (core is built)', () => {
    expect(poolThreads(10, pooled)).toBe(2);
    expect(collectFiles(['.'], dir, { units: true }).units.map((u) => u.file.split('/').pop())).toEqual([
      ...readdirSync(join(dir, '.team', 'runs'))
        .filter((n) => !n.startsWith('.') && n !== 'current' && n !== 'x-y.json')
        .sort(),
    ]);
  });

  for (const [name, paths] of [
    ['the project', ['.']],
    ['a run and the project', [join('.team', 'runs', 'x'), '.']],
    ['a run alone', [join('.team', 'runs', 'x')]],
    ['a file named in a run, and the project', () => ['.', event]],
    ['the runs folder', [join('.team', 'runs')]],
  ] as const)
    for (const [label, opts] of [
      ['plain', {}],
      ['--strict', { strict: true }],
      ['--dialect ulpi (no run is touched)', { dialect: 'ulpi' }],
    ] as const)
      it(`${name} (${label}): one thread and the pool equal file by file`, () => {
        const p = typeof paths === 'function' ? paths() : [...paths];
        const expected = report(p, dir, false, { ...opts, pool: serial });
        expect(report(p, dir, true, { ...opts, pool: serial })).toBe(expected);
        expect(report(p, dir, true, { ...opts, pool: pooled })).toBe(expected);
        expect(report(p, dir, true, { ...opts, pool: { ...pooled, callerWorks: true } })).toBe(expected);
        if (label === 'plain' && name === 'the project')
          for (const code of [
            'team/current-not-newest',
            'team/leftover-temp-file',
            'team/incomplete-run',
            'team/missing-run-json',
            'team/conflicting-terminal-events',
          ])
            expect(expected).toContain(code);
      });
});

describe('onLargeInput', () => {
  const inputs = (paths: string[], cwd: string, pool = serial) => {
    const told: LargeInput[] = [];
    const stream = validateCollected(collectFiles(paths, cwd, { units: true }), {
      pool,
      onLargeInput: (input) => told.push(input),
    });
    for (const _ of stream.files);
    return told;
  };
  const calls = (paths: string[], cwd: string) => inputs(paths, cwd).length;

  it('should call onLongInput once, before the unit that takes a brief input over VALIDATE_BRIEF_FILES', () => {
    const root = mkdtempSync(join(tmpdir(), 'ckpt-long-'));
    try {
      const runs = join(root, '.team', 'runs');
      mkdirSync(join(runs, 'a'), { recursive: true });
      writeFileSync(join(runs, 'a', 'notes.txt'), '');
      const told: string[] = [];
      const run = () => {
        told.length = 0;
        const stream = validateCollected(collectFiles(['.'], root, { units: true }), {
          pool: serial,
          onLargeInput: ({ brief }) => told.push(`large ${brief}`),
          onLongInput: () => told.push('long'),
        });
        for (const r of stream.files) told.push(r.file);
        return told;
      };
      expect(run()).toEqual(['large true']);
      // Files that are not checkpoints count too: a unit's files are counted as its walk lists them.
      const big = join(runs, 'b');
      mkdirSync(big);
      for (let i = 0; i <= VALIDATE_BRIEF_FILES; i++) writeFileSync(join(big, `${i}.txt`), '');
      writeFileSync(join(big, 'run.json'), '{}');
      expect(run()).toEqual(['large true', 'long', '.team/runs/a', '.team/runs/b/run.json']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('should tell a tree of up to VALIDATE_BRIEF_UNITS runs brief, and one of more not', () => {
    expect(inputs(['.'], sample)).toEqual([{ brief: true, threads: 1 }]);
    const root = mkdtempSync(join(tmpdir(), 'ckpt-brief-'));
    try {
      const runs = join(root, '.team', 'runs');
      for (let i = 0; i < VALIDATE_BRIEF_UNITS; i++) mkdirSync(join(runs, `r${i}`), { recursive: true });
      expect(inputs(['.'], root)).toEqual([{ brief: true, threads: 1 }]);
      mkdirSync(join(runs, 'one-more'));
      expect(inputs(['.'], root)).toEqual([{ brief: false, threads: 1 }]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('should check a brief tree on two threads from fewer runs when a worker has already started', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ckpt-started-'));
    try {
      const runs = join(root, '.team', 'runs');
      const n = 2 * VALIDATE_MIN_UNITS_PER_THREAD_STARTED;
      expect(n).toBeLessThan(2 * VALIDATE_MIN_UNITS_PER_THREAD);
      for (let i = 0; i < n; i++) mkdirSync(join(runs, `r${i}`), { recursive: true });
      const two: ValidateOptions['pool'] = { threads: 2 };
      poolRelease();
      expect(inputs(['.'], root, two)).toEqual([{ brief: true, threads: 1 }]);
      warmPool(2);
      await warmPoolLoaded();
      expect(poolIdleWorkers()).toBe(1);
      expect(inputs(['.'], root, two)).toEqual([{ brief: true, threads: 2 }]);
      expect(poolIdleWorkers()).toBe(0);
      // A waiting worker that the input is too small for is stopped.
      warmPool(2);
      expect(inputs(['.'], sample, two)).toEqual([{ brief: true, threads: 1 }]);
      expect(poolIdleWorkers()).toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);

  it('should be called once for a tree with a run, before its report, and never for a file or a few', () => {
    expect(calls(['.'], sample)).toBe(1);
    const runs = join(sample, '.team', 'runs');
    const [run] = readdirSync(runs).filter((n) => n !== 'current');
    const events = join(runs, run!, 'events');
    const [first, second] = readdirSync(events).sort();
    expect(calls([join(events, first!)], sample)).toBe(0);
    expect(calls([join(events, first!), join(events, second!), join(sample, '.ulpi')], sample)).toBe(0);
  });
});
