import { describe, expect, it } from 'vitest';
import { type PoolTask, poolMap, poolThreads, warmPool, warmPoolLoaded } from './pool.js';

// Pooled runs use core's built worker (packages/core/dist/pool/pool-worker.js): build core first. Under vitest its
// modules load only while this thread is free (seconds on a loaded machine): the test waits until they have.

/** A task no worker knows (not in tasks.ts): every chunk a worker takes fails there and is redone here. */
const unknownToWorkers: PoolTask<{ base: number }, number> = {
  name: 'pool-test-not-registered',
  start:
    ({ base }) =>
    (from, to) =>
      Array.from({ length: to - from }, (_, i) => base + (from + i) * 2),
};

describe('poolMap', () => {
  it('should run one thread for few items, and without starting anything for none', () => {
    expect(poolThreads(10, { threads: 2, minItemsPerThread: 100 })).toBe(1);
    expect(poolMap(unknownToWorkers, { base: 1 }, 0, { threads: 2, minItemsPerThread: 1 })).toEqual([]);
  });

  it('should return every item in order when the workers fail on every chunk they take', async () => {
    warmPool(2);
    await warmPoolLoaded();
    expect(poolThreads(3000, { threads: 2, minItemsPerThread: 1 })).toBe(2);
    // Chunks computed here take 10 ms each, so that the worker (its modules loaded) takes the others, which it
    // fails on at once (it has no such task); those are then done here.
    const computed: number[] = [];
    const slow: PoolTask<{ base: number }, number> = {
      name: unknownToWorkers.name,
      start: (input) => {
        const run = unknownToWorkers.start(input);
        return (from, to) => {
          computed.push(from);
          const until = performance.now() + 10;
          while (performance.now() < until);
          return run(from, to);
        };
      },
    };
    const failed: number[] = [];
    const out = poolMap(slow, { base: 7 }, 3000, {
      threads: 2,
      minItemsPerThread: 1,
      chunkSize: 3,
      onWorkerError: (chunk, error) => {
        expect(error).toContain('no pool task');
        failed.push(chunk);
      },
    });
    expect(out).toEqual(unknownToWorkers.start({ base: 7 })(0, 3000));
    expect(failed.length).toBeGreaterThan(0);
    // Every chunk was computed here exactly once: the worker's failed ones after its own.
    expect([...computed].sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i * 3));
    for (const c of failed) expect(computed.indexOf(c * 3)).toBeGreaterThan(0);
  }, 60_000);
});
