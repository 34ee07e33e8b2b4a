// @ts-check

/** Pages of text held at most before they are copied into one. */
const COMPACT_PAGES = 64;

/**
 * The slim units of one run, held as few objects as the page can: each unit's id and status (what the list
 * filters and finds by), and the rest as JSON text, one string per page of units, a unit made again when a row or
 * the detail shows it. A page holding 10,000 units as objects (each with its attempts and their times, ~60 objects
 * and strings a unit) kept ~10 MB of small objects alive, and the browser's compacting GC, which marks and moves
 * each of them, took 80-135 ms of CPU under 4x throttling in the middle of a scroll. A long string is one object,
 * with nothing inside to mark, and it is not moved.
 */
export class UnitTable {
  constructor() {
    /** @type {string[]} each unit's id, by index */
    this.ids = [];
    /** @type {string[]} each unit's status, by index (one string per distinct status) */
    this.statuses = [];
    /** @type {string[]} the JSON text of each page of units */
    this.texts = [];
    /** @type {number[]} each unit's page (an index into `texts`), start and end in it */
    this.page = [];
    /** @type {number[]} */
    this.start = [];
    /** @type {number[]} */
    this.end = [];
    /** @type {Map<string, string>} the statuses seen, each once */
    this.names = new Map();
  }

  /** Units held. */
  get length() {
    return this.ids.length;
  }

  /** The index of the unit with this id, -1 if none. @param {string} id */
  indexOf(id) {
    return this.ids.indexOf(id);
  }

  /** The unit at index `i` as the server sent it (a new object each call), undefined past the end. @param {number} i */
  get(i) {
    const text = this.texts[this.page[i] ?? -1];
    if (text === undefined) return undefined;
    return JSON.parse(text.slice(this.start[i], this.end[i]));
  }

  /** Adds units at the end. @param {any[]} units */
  append(units) {
    this.put(units, this.ids.length);
  }

  /** Replaces the units at these indexes. @param {any[]} units @param {number[]} at */
  replace(units, at) {
    this.put(units, at);
  }

  /**
   * Holds `units` at `at` (each unit's index), or from index `at` on; their text is one new page.
   * @param {any[]} units @param {number | number[]} at
   */
  put(units, at) {
    if (units.length === 0) return;
    const p = this.texts.length;
    const parts = [];
    let n = 0;
    units.forEach((u, k) => {
      const i = typeof at === 'number' ? at + k : /** @type {number} */ (at[k]);
      const json = JSON.stringify(u);
      this.ids[i] = u.id;
      this.statuses[i] = typeof u.status === 'string' ? this.name(u.status) : u.status;
      this.page[i] = p;
      this.start[i] = n;
      n += json.length;
      this.end[i] = n;
      parts.push(json);
    });
    this.texts.push(parts.join(''));
    this.compact();
  }

  /** @param {string} s */
  name(s) {
    let held = this.names.get(s);
    if (held === undefined) {
      held = s;
      this.names.set(s, s);
    }
    return held;
  }

  /**
   * Once most of the text held is of units replaced since (live changes re-fetch changed units), every unit's text
   * is copied into one page and the rest let go.
   */
  compact() {
    if (this.texts.length < 2) return;
    let live = 0;
    for (let i = 0; i < this.ids.length; i++)
      live += /** @type {number} */ (this.end[i]) - /** @type {number} */ (this.start[i]);
    let held = 0;
    for (const t of this.texts) held += t.length;
    if (held <= 2 * live && this.texts.length <= COMPACT_PAGES) return;
    const parts = [];
    let n = 0;
    for (let i = 0; i < this.ids.length; i++) {
      const json = /** @type {string} */ (this.texts[/** @type {number} */ (this.page[i])]).slice(
        this.start[i],
        this.end[i],
      );
      this.page[i] = 0;
      this.start[i] = n;
      n += json.length;
      this.end[i] = n;
      parts.push(json);
    }
    this.texts = [parts.join('')];
  }
}
