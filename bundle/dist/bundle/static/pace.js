// @ts-check

/** Main-thread time (ms) a frame of a scroll may spend, rows included: most of a 60 Hz frame. */
const BUDGET = 12;
/** Rows a frame may fill at most, however fast the machine (less than a screen: a fling still shows names) ... */
const MOST = 12;
/** ... and at least (rows always come back, and a stopped scroll gets its rows in a few frames). */
const LEAST = 2;
/** What a frame costs before any is measured: a frame that fills no row (ms), and each row it fills. */
const BASE = 2;
const PER_ROW = 1;
/** Frames an estimate is the median of: one frame that the machine's other work made long does not count ... */
const WINDOW = 9;
/** ... measured in the last this many ms: a list that shows names fills no rows to measure, and after a while it
 * tries rows again at a guess (a machine busy a moment ago may not be now). The guess of a row's cost scales with
 * what a frame without rows costs now (measured while the names show), so a machine still slow (throttled, busy)
 * does not try: such a try is a long frame there (under 4x throttling the list's retry every 3 s was a 40-60 ms
 * frame of CPU), and a fast one that showed names after a hiccup gets its rows back within a second ... */
const AGE = 1000;
/** ... filling no more than this many rows a frame until a frame that filled rows is measured again. */
const PROBE = 4;

/**
 * How many rows a list can fill in one frame of a scroll on this machine, from what its recent frames cost: the
 * main thread's time from the list's frame callback until the frame is drawn (style, layout, paint and commit
 * included: a throttled or busy machine's frames take longer, and so fill fewer rows). A frame costs `base` plus
 * `perRow` for each row it fills, each the median of the frames measured in the last AGE ms (at most WINDOW); a
 * list fills as many rows as fit in BUDGET, and shows its items' names instead while a scroll brings in more rows
 * than that.
 */
export class FramePace {
  constructor() {
    /** @type {Samples} frames that filled no row: ms */
    this.bases = new Samples(BASE);
    /** @type {Samples} frames that filled rows: ms a row, over what a frame without rows costs */
    this.perRows = new Samples(PER_ROW);
  }

  /**
   * A frame's cost, measured: `ms` of main-thread time for a frame that filled `rows` rows, ending at `now`.
   * @param {number} ms @param {number} rows @param {number} [now]
   */
  record(ms, rows, now = performance.now()) {
    if (!(ms >= 0 && ms < 10_000) || !(rows >= 0)) return;
    if (rows === 0) this.bases.add(ms, now);
    else this.perRows.add(Math.max(0.05, (ms - this.bases.estimate(now)) / rows), now);
  }

  /**
   * Rows a frame may fill, by what recent frames cost: as many as fit in BUDGET, at least LEAST, at most MOST (a
   * scroll that brings in more shows names).
   * @param {number} [now]
   */
  rows(now = performance.now()) {
    const base = this.bases.estimate(now);
    // Without recent rows measured, a row costs what it does where a frame without rows costs BASE, scaled.
    const fit = (BUDGET - base) / this.perRows.estimate(now, (base * PER_ROW) / BASE);
    return Math.max(LEAST, Math.min(MOST, Math.floor(fit)));
  }

  /**
   * Rows a frame fills now: `rows()`, or at most PROBE while no recent frame that filled rows was measured (a first
   * guess that is wrong costs one frame of a few rows, not a long one). @param {number} [now]
   */
  fill(now = performance.now()) {
    const rows = this.rows(now);
    return this.perRows.values.length ? rows : Math.min(rows, PROBE);
  }
}

/** The last samples of one cost, each with its time. */
class Samples {
  /** @param {number} guess the estimate without a sample */
  constructor(guess) {
    this.guess = guess;
    /** @type {number[]} */
    this.values = [];
    /** @type {number[]} */
    this.times = [];
    /** The estimate's sorted copy, kept: a frame's estimates make no garbage (a scroll asks for them every frame). */
    this.sorted = new Float64Array(WINDOW + 1);
  }

  /** @param {number} value @param {number} now */
  add(value, now) {
    this.values.push(value);
    this.times.push(now);
    if (this.values.length > WINDOW) {
      this.values.shift();
      this.times.shift();
    }
  }

  /**
   * The median of the samples of the last AGE ms (the lower one of an even count), the guess among them while they
   * are fewer than 3 (one slow first frame, e.g. the first after a pause, does not decide alone).
   * @param {number} now @param {number} [guess] the estimate without a sample (default: the constructor's)
   */
  estimate(now, guess = this.guess) {
    while (this.times.length && /** @type {number} */ (this.times[0]) < now - AGE) {
      this.values.shift();
      this.times.shift();
    }
    // The samples and, while they are fewer than 3, the guess, sorted by insertion.
    const { sorted, values } = this;
    let n = 0;
    if (values.length < 3) sorted[n++] = guess;
    for (let k = 0; k < values.length; k++) {
      const v = /** @type {number} */ (values[k]);
      let j = n++;
      for (; j > 0 && /** @type {number} */ (sorted[j - 1]) > v; j--)
        sorted[j] = /** @type {number} */ (sorted[j - 1]);
      sorted[j] = v;
    }
    return /** @type {number} */ (sorted[(n - 1) >> 1]);
  }
}
