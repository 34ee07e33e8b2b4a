import { describe, expect, it } from 'vitest';
// @ts-expect-error the client is plain JS (checked with its JSDoc types by tsc --checkJs), served as is
import { FramePace } from '../static/pace.js';

/** Frames measured: `n` frames of `ms` each that filled `rows` rows. */
function frames(pace: FramePace, n: number, ms: number, rows: number) {
  for (let k = 0; k < n; k++) pace.record(ms, rows);
}

describe('FramePace: rows a frame of a scroll may fill, from what the recent frames cost', () => {
  it('should let a fast machine fill a quick wheel scroll (5 to 6 rows a frame and a late frame) in full', () => {
    const pace = new FramePace();
    // Unthrottled, this page: a frame without rows ~1.5 ms, ~0.8 ms a row.
    frames(pace, 5, 1.5, 0);
    frames(pace, 9, 1.5 + 0.8 * 6, 6);
    expect(pace.rows()).toBeGreaterThanOrEqual(11);
  });

  it('should let a throttled or busy machine fill only a couple of rows a frame', () => {
    const pace = new FramePace();
    // 4x CPU throttling: ~10 ms without rows, ~2 ms a row.
    frames(pace, 9, 10, 0);
    frames(pace, 9, 10 + 2 * 5, 5);
    expect(pace.rows()).toBe(2);
    // Busier still: never fewer than 2 (a stopped scroll gets its rows back in a few frames).
    frames(pace, 9, 30, 0);
    expect(pace.rows()).toBe(2);
  });

  it('should follow a machine that slows down within a few frames, and not one long frame', () => {
    const pace = new FramePace();
    frames(pace, 9, 1.5, 0);
    frames(pace, 9, 1.5 + 0.8 * 6, 6);
    const fast = pace.rows();
    // One frame the machine's other work made long: the same rows.
    pace.record(60, 6);
    pace.record(40, 0);
    expect(pace.rows()).toBe(fast);
    // It stays slow: fewer rows once half of the last frames say so.
    frames(pace, 5, 10, 0);
    frames(pace, 5, 10 + 2 * 6, 6);
    expect(pace.rows()).toBe(2);
    // And fast again.
    frames(pace, 5, 1.5, 0);
    frames(pace, 5, 1.5 + 0.8 * 6, 6);
    expect(pace.rows()).toBe(fast);
  });

  it('should try rows again at its first guess once its measurements are old', () => {
    const pace = new FramePace();
    const guess = pace.rows(0);
    // A list that showed names after slow frames measures no row: a second later, it tries rows again.
    for (let t = 0; t < 9; t++) pace.record(2 + 10 * 6, 6, t * 16);
    expect(pace.rows(150)).toBe(2);
    expect(pace.rows(900)).toBe(2);
    expect(pace.rows(1200)).toBe(guess);
    // One slow first frame alone does not decide.
    pace.record(2 + 10 * 6, 6, 2000);
    expect(pace.rows(2001)).toBe(guess);
  });

  it('should not try rows again while the frames without rows say the machine is still slow', () => {
    const pace = new FramePace();
    // 4x CPU throttling: rows measured, then names shown (frames without rows, ~6 ms each) for seconds.
    for (let t = 0; t < 9; t++) pace.record(6 + 3 * 4, 4, t * 16);
    for (let t = 9; t < 300; t++) pace.record(6, 0, t * 16);
    expect(pace.rows(150)).toBe(2);
    // The row measurements are old: a row's guess scales with the frames' cost (6 ms where the first guess is 2).
    expect(pace.rows(300 * 16)).toBe(2);
    expect(pace.fill(300 * 16)).toBe(2);
    // The machine is fast again (frames without rows of 1.5 ms): rows again, as at the first guess.
    for (let t = 300; t < 309; t++) pace.record(1.5, 0, t * 16);
    expect(pace.rows(309 * 16)).toBeGreaterThanOrEqual(10);
  });

  it('should ignore measurements that cannot be a frame', () => {
    const pace = new FramePace();
    const before = pace.rows();
    for (const ms of [Number.NaN, -1, Number.POSITIVE_INFINITY, 1e9]) pace.record(ms, 3);
    pace.record(5, Number.NaN);
    pace.record(5, -2);
    expect(pace.rows()).toBe(before);
    expect(before).toBeGreaterThanOrEqual(2);
    expect(before).toBeLessThanOrEqual(12);
  });
});
