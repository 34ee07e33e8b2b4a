// @ts-check
import { splitArray } from './unit-table.js';

/**
 * The run's timeline document (`/timeline`: a row per phase and unit, each with its bars `[start, end | null,
 * tone]`) held as columns: each row's id, kind and status, and every bar's start, end and tone in typed arrays,
 * a row's bars from `first[r]` to `first[r + 1]`. As parsed, a 10,000-unit timeline was ~4 MB of small objects (an
 * array and a heap number per bar end) that every GC of the page marks and moves; a typed array's numbers are
 * outside the JS heap's objects.
 * @param {any} doc the document as the server sent it
 */
export function timelineTable(doc) {
  const rows = doc.rows;
  let bars = 0;
  for (let r = 0; r < rows.length; r++) bars += rows[r].bars.length;
  return columns(doc, rows.length, (r) => rows[r], bars);
}

/**
 * The same columns from the document's text, each row parsed alone (`splitArray`) and let go at once: the
 * 2.8 MB document of a 10,000-unit run parsed whole was ~10 MB of objects alive until the last row was read, the
 * largest garbage of the run page's load, kept through the young generation's collections into the old one.
 * @param {string} text
 */
export function timelineFromText(text) {
  const split = splitArray(text, 'rows');
  if (!split) return timelineTable(JSON.parse(text));
  const spans = split.spans;
  return columns(split.doc, spans.length / 2, (r) => JSON.parse(text.slice(spans[2 * r], spans[2 * r + 1])));
}

/**
 * @param {any} doc the document (its `lo`, `hi`) @param {number} n rows
 * @param {(r: number) => any} rowAt row `r` as an object
 * @param {number} [bars] the bars in all, when known (else the columns grow as rows are read)
 */
function columns(doc, n, rowAt, bars = 8 * n) {
  /** @type {Map<any, number>} */
  const toneAt = new Map();
  /** @type {any[]} each tone once, by its number in `tone` */
  const tones = [];
  /** @type {Map<any, any>} */
  const names = new Map();
  /** The same string for equal ones (few kinds and statuses, 10,000 rows). @param {any} x */
  const once = (x) => {
    const held = names.get(x);
    if (held !== undefined) return held;
    names.set(x, x);
    return x;
  };
  const first = new Uint32Array(n + 1);
  let start = new Float64Array(bars);
  // A bar without an end (null) is NaN here.
  let end = new Float64Array(bars);
  let tone = new Uint16Array(bars);
  /** @type {any[]} */
  const ids = [];
  /** @type {any[]} */
  const kinds = [];
  /** @type {any[]} */
  const statuses = [];
  let b = 0;
  for (let r = 0; r < n; r++) {
    const row = rowAt(r);
    ids.push(row.id);
    kinds.push(once(row.kind));
    statuses.push(once(row.status));
    first[r] = b;
    // Indexed, not destructured: an iterator and its result objects per bar were the largest garbage the page
    // made while it loaded (3-5 MB of 16-18 MB sampled, for 10,000 rows).
    const rowBars = row.bars;
    if (b + rowBars.length > start.length) {
      const size = Math.max(2 * start.length, b + rowBars.length);
      start = grown(start, new Float64Array(size));
      end = grown(end, new Float64Array(size));
      tone = grown(tone, new Uint16Array(size));
    }
    for (let j = 0; j < rowBars.length; j++) {
      const bar = rowBars[j];
      start[b] = bar[0];
      end[b] = bar[1] ?? Number.NaN;
      const t = bar[2];
      let k = toneAt.get(t);
      if (k === undefined) {
        k = tones.length;
        toneAt.set(t, k);
        tones.push(t);
      }
      tone[b] = k;
      b++;
    }
  }
  first[n] = b;
  if (b < start.length) {
    start = start.slice(0, b);
    end = end.slice(0, b);
    tone = tone.slice(0, b);
  }
  return { lo: doc.lo, hi: doc.hi, n, ids, kinds, statuses, first, start, end, tone, tones };
}

/**
 * `to` holding `from`'s values first. @template {Float64Array | Uint16Array} A @param {A} from @param {A} to
 * @returns {A}
 */
function grown(from, to) {
  to.set(/** @type {any} */ (from));
  return to;
}

/** @typedef {ReturnType<typeof timelineTable>} TimelineTable */

/** The tone of bar `b`. @param {TimelineTable} t @param {number} b */
export function barTone(t, b) {
  return t.tones[/** @type {number} */ (t.tone[b])];
}

/**
 * Where bar `b` is drawn to: its end; a bar without one, to the timeline's end while it is active, else to its
 * start.
 * @param {TimelineTable} t @param {number} b
 */
export function drawnEnd(t, b) {
  const e = /** @type {number} */ (t.end[b]);
  if (!Number.isNaN(e)) return e;
  return barTone(t, b) === 'active' ? t.hi : /** @type {number} */ (t.start[b]);
}
