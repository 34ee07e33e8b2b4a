import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import {
  adoptPoolWorker,
  type PoolTask,
  poolChunks,
  poolIdleWorkers,
  poolMap,
  poolRelease,
  poolThreads,
  warmPool,
  warmPoolLoaded,
} from './pool.js';

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
    // Every chunk was computed here exactly once: the worker's failed ones after its own (none when the worker
    // took every chunk before this thread took one: a loaded machine can pause this thread that long).
    expect([...computed].sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i * 3));
    const lastOwn = Math.max(-1, ...computed.map((from, i) => (failed.includes(from / 3) ? -1 : i)));
    for (const c of failed) expect(computed.indexOf(c * 3)).toBeGreaterThan(lastOwn);
  }, 60_000);
});

describe('poolChunks', () => {
  it('should yield one array per chunk, in order, the same as on one thread', () => {
    const chunks = [...poolChunks(unknownToWorkers, { base: 3 }, 10, { threads: 1, chunkSize: 4 })];
    expect(chunks).toEqual([
      [3, 5, 7, 9],
      [11, 13, 15, 17],
      [19, 21],
    ]);
  });

  it('should do here every chunk the workers fail on when this thread only receives (callerWorks: false)', () => {
    const failed: number[] = [];
    const chunks = [
      ...poolChunks(unknownToWorkers, { base: 1 }, 100, {
        threads: 2,
        minItemsPerThread: 1,
        chunkSize: 10,
        callerWorks: false,
        youngGenerationMb: 6,
        onWorkerError: (chunk) => failed.push(chunk),
      }),
    ];
    expect(chunks.flat()).toEqual(unknownToWorkers.start({ base: 1 })(0, 100));
    expect(chunks).toHaveLength(10);
    // Two workers took every chunk (this thread took none) and failed on each: all redone here, in order.
    expect(failed.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  }, 60_000);
});

describe('workers started ahead', () => {
  const script = fileURLToPath(new URL('../../dist/pool/pool-worker.js', import.meta.url));

  it('should take a worker the caller started itself for the next job, like one warmPool started', async () => {
    poolRelease();
    const w = new Worker(script);
    const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
    adoptPoolWorker(w);
    expect(poolIdleWorkers()).toBe(1);
    await warmPoolLoaded();
    const failed: number[] = [];
    const out = poolMap(unknownToWorkers, { base: 5 }, 200, {
      threads: 2,
      minItemsPerThread: 1,
      chunkSize: 10,
      callerWorks: false,
      onWorkerError: (chunk) => failed.push(chunk),
    });
    expect(out).toEqual(unknownToWorkers.start({ base: 5 })(0, 200));
    // The job took it (and started one more: callerWorks false wants two), and stopped both at its end.
    expect(poolIdleWorkers()).toBe(0);
    expect(failed.length).toBe(20);
    await exited;
  }, 60_000);

  it('should stop the workers waiting for a job when told none will come', async () => {
    warmPool(2);
    expect(poolIdleWorkers()).toBe(1);
    await warmPoolLoaded();
    const w = new Worker(script);
    const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
    adoptPoolWorker(w);
    expect(poolIdleWorkers()).toBe(2);
    poolRelease();
    expect(poolIdleWorkers()).toBe(0);
    // It ends (an idle worker left alone would wait for a job as long as the process lives).
    await exited;
  }, 60_000);
});

describe('afterChunk', () => {
  it('should be called on this thread after each chunk it ran', () => {
    const after: number[] = [];
    let last = -1;
    const task: PoolTask<{ base: number }, number> = {
      name: unknownToWorkers.name,
      start: (input) => {
        const run = unknownToWorkers.start(input);
        return (from, to) => {
          last = from;
          return run(from, to);
        };
      },
    };
    const out = poolMap(task, { base: 0 }, 10, {
      threads: 1,
      chunkSize: 3,
      afterChunk: () => after.push(last),
    });
    expect(out).toEqual(unknownToWorkers.start({ base: 0 })(0, 10));
    expect(after).toEqual([0, 3, 6, 9]);
  });
});
