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
    /** Characters of text the units point into (the rest of `texts` is of units replaced since, or no unit's). */
    this.live = 0;
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
      if (i < this.ids.length)
        this.live -= /** @type {number} */ (this.end[i]) - /** @type {number} */ (this.start[i]);
      this.live += json.length;
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

  /**
   * Adds the units of a `/units` page at the end from its response text as it is (`splitUnits`): the text is held,
   * each unit's id and status read from its first fields, no unit parsed.
   * @param {string} text @param {number[]} spans each unit's start and end in `text`
   */
  appendText(text, spans) {
    const p = this.texts.length;
    let i = this.ids.length;
    for (let k = 0; k < spans.length; k += 2, i++) {
      const s = /** @type {number} */ (spans[k]);
      const e = /** @type {number} */ (spans[k + 1]);
      const head = headOf(text, s);
      if (head) {
        this.ids[i] = head.id;
        this.statuses[i] = this.name(head.status);
      } else {
        const u = JSON.parse(text.slice(s, e));
        this.ids[i] = u.id;
        this.statuses[i] = typeof u.status === 'string' ? this.name(u.status) : u.status;
      }
      this.page[i] = p;
      this.start[i] = s;
      this.end[i] = e;
      this.live += e - s;
    }
    if (spans.length) {
      this.texts.push(text);
      this.compact();
    }
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
    let held = 0;
    for (const t of this.texts) held += t.length;
    if (held <= 2 * this.live && this.texts.length <= COMPACT_PAGES) return;
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

/** A unit's first fields as the server writes them. */
const ID = '{"id":"';
const STATUS = ',"status":"';

/**
 * The id and status of the unit whose JSON text starts at `s`, read from its first two fields when they are
 * string fields `id` and `status` in that order (as the server writes a slim unit); undefined otherwise.
 * @param {string} text @param {number} s
 * @returns {{ id: string, status: string } | undefined}
 */
function headOf(text, s) {
  if (!text.startsWith(ID, s)) return undefined;
  const a = s + ID.length - 1;
  const b = stringEnd(text, a);
  if (b < 0 || !text.startsWith(STATUS, b)) return undefined;
  const c = b + STATUS.length - 1;
  const d = stringEnd(text, c);
  if (d < 0) return undefined;
  return { id: stringAt(text, a, b), status: stringAt(text, c, d) };
}

/** The JSON string literal `text[a, b)`, unescaped. @param {string} text @param {number} a @param {number} b */
function stringAt(text, a, b) {
  const raw = text.slice(a + 1, b - 1);
  return raw.includes('\\') ? JSON.parse(text.slice(a, b)) : raw;
}

/**
 * The end (one past the closing quote) of the JSON string literal whose opening quote is at `q`; -1 if it does not
 * end. @param {string} text @param {number} q
 */
function stringEnd(text, q) {
  let j = q;
  for (;;) {
    j = text.indexOf('"', j + 1);
    if (j < 0) return -1;
    // A quote after an odd number of backslashes is escaped.
    let k = j - 1;
    while (text.charCodeAt(k) === 92) k--;
    if ((j - 1 - k) % 2 === 0) return j + 1;
  }
}

/**
 * A `/units` page (`{"total":…,"units":[{…},…],…}`) read without parsing its units into objects: the document
 * with `units` empty, and each unit's start and end in the text (pairs). A page of 2,000 units parsed whole made
 * ~120,000 objects and strings that lived only until their text was taken, and the first full GC after the list
 * filled (under 4x throttling ~30 ms, in a scroll) had them to sweep. undefined when the text is not such a
 * document (the caller parses it whole).
 * @param {string} text
 * @returns {{ doc: any, spans: number[] } | undefined}
 */
export function splitUnits(text) {
  return splitArray(text, 'units');
}

/**
 * A JSON document whose top-level field `key` is an array of objects, read without parsing those objects: the
 * document with that array empty, and each object's start and end in the text (pairs). undefined when the text is
 * not such a document (the caller parses it whole).
 * @param {string} text @param {string} key
 * @returns {{ doc: any, spans: number[] } | undefined}
 */
export function splitArray(text, key) {
  const field = `${JSON.stringify(key)}:[`;
  const quoted = field.length - 2;
  /** @type {number[]} */
  const spans = [];
  let depth = 0;
  // The array's `[` and one past its `]` (-1: not seen), and the start of the object being read.
  let open = -1;
  let close = -1;
  let unit = -1;
  const n = text.length;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    // In the array, between its objects: only `,` and its end (an item that is not an object: parse it whole).
    if (depth === 2 && open >= 0 && close < 0 && c !== 123 && c !== 44 && c !== 93) return undefined;
    if (c === 34) {
      const e = stringEnd(text, i);
      if (e < 0) return undefined;
      if (depth === 1 && open < 0 && e - i === quoted && text.startsWith(field, i)) {
        open = e + 1;
        depth = 2;
        i = open + 1;
        continue;
      }
      i = e;
      continue;
    }
    if (c === 123 || c === 91) {
      depth++;
      if (depth === 3 && open >= 0 && close < 0) unit = i;
    } else if (c === 125 || c === 93) {
      depth--;
      if (depth < 0) return undefined;
      if (open >= 0 && close < 0) {
        if (depth === 2) spans.push(unit, i + 1);
        else if (depth === 1) close = i + 1;
      }
    }
    i++;
  }
  if (depth !== 0 || open < 0 || close < 0) return undefined;
  let doc;
  try {
    doc = JSON.parse(`${text.slice(0, open)}[]${text.slice(close)}`);
  } catch {
    return undefined;
  }
  return doc && typeof doc === 'object' && Array.isArray(doc[key]) ? { doc, spans } : undefined;
}
