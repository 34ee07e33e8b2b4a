import { describe, expect, it } from 'vitest';
import { type PoolTask, poolMap, poolThreads, warmPool } from './pool.js';

// Pooled runs use core's built worker (packages/core/dist/pool/pool-worker.js): build core first. Unbundled, it
// loads core's module graph in 0.25-0.5 s on a busy machine, so workers are started ahead and given time.
const settle = () => new Promise((resolve) => setTimeout(resolve, 2000));

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
    await settle();
    expect(poolThreads(3000, { threads: 2, minItemsPerThread: 1 })).toBe(2);
    // Chunks computed here, in the order they were: slow enough (~0.2 ms each) that the worker takes some, which
    // it fails on (it has no such task); those are done here at the end, out of order.
    const computed: number[] = [];
    const slow: PoolTask<{ base: number }, number> = {
      name: unknownToWorkers.name,
      start: (input) => {
        const run = unknownToWorkers.start(input);
        return (from, to) => {
          computed.push(from);
          const until = performance.now() + 0.2;
          while (performance.now() < until);
          return run(from, to);
        };
      },
    };
    const out = poolMap(slow, { base: 7 }, 3000, { threads: 2, minItemsPerThread: 1, chunkSize: 3 });
    expect(out).toEqual(unknownToWorkers.start({ base: 7 })(0, 3000));
    expect(computed.length).toBe(1000);
    expect(computed.some((from, i) => i > 0 && from < computed[i - 1]!)).toBe(true);
  });
});
