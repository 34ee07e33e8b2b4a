import { setImmediate as tick } from 'node:timers/promises';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../src/collect-garbage.js';

describe('collectGarbage', () => {
  it('collects what nothing holds, and leaves no gc function to contexts made afterwards', async () => {
    const had = typeof (globalThis as { gc?: unknown }).gc;
    const ref = new WeakRef({ big: new Array(1000).fill('x') });
    // A WeakRef's target is held until the job that made it ends.
    await tick();
    collectGarbage();
    expect(ref.deref()).toBeUndefined();
    collectGarbage();
    expect(runInNewContext('typeof gc')).toBe('undefined');
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe(had);
  });
});
