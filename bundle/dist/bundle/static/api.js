// @ts-check
import { uriPart } from './dom.js';
import { splitUnits, UnitTable } from './unit-table.js';

/** Documents already fetched, by URL, with their entity tags: a refresh of an unchanged run costs a 304. */
const held = new Map();

export class ApiError extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * Fetches a JSON document; `changed` is false when the server answered 304 for what we hold.
 * @param {string} url
 * @param {{ keep?: boolean, make?: (data: any) => any, fromText?: (text: string) => any }} [opts] `keep: false`
 *   for pages of a list: not held for a 304 later; `make`: what is returned and held instead of the document (e.g.
 *   a compact form of a large one); `fromText`: the same made from the response's text, not parsed here (a large
 *   document read a part at a time)
 * @returns {Promise<{ data: any, changed: boolean }>}
 */
export async function getJson(url, opts = {}) {
  const prior = held.get(url);
  const res = await fetch(url, {
    cache: 'no-store',
    headers: prior ? { 'if-none-match': prior.etag } : {},
  });
  if (res.status === 304 && prior) return { data: prior.data, changed: false };
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    throw new ApiError(res.status, body.error ?? res.statusText);
  }
  const data = opts.fromText
    ? opts.fromText(await res.text())
    : opts.make
      ? opts.make(await res.json())
      : await res.json();
  const etag = res.headers.get('etag');
  if (etag && opts.keep !== false) held.set(url, { etag, data });
  return { data, changed: true };
}

/** @param {string} url @returns {Promise<string>} */
export async function getText(url) {
  const res = await fetch(url, { cache: 'no-store' });
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    throw new ApiError(res.status, body.error ?? res.statusText);
  }
  return res.text();
}

/** Units per paged request while the list fills in the background. */
const UNIT_PAGE = 2000;
/** More changed units than this (or ids this long in all) and the list is fetched again instead. */
const MAX_PATCH = 200;

/**
 * Every slim unit of one run, for the unit list: the page document's first screen at once, the rest page by page
 * from `/units?offset=&limit=` in the background; a live change re-fetches only the units its delta names
 * (`/units?id=...`). `onMore` runs after each page or patch arrives.
 */
export class UnitPager {
  /** @param {string} base `/api/runs/<dialect>/<id>` @param {() => void} onMore */
  constructor(base, onMore) {
    this.base = base;
    this.onMore = onMore;
    /** @type {UnitTable} */
    this.units = new UnitTable();
    this.total = 0;
    this.gen = 0;
    /** Whether every unit is held. */
    this.complete = false;
  }

  /**
   * The units to show now for a fresh page document, and what to fetch next.
   * @param {any} run the page document's run (`units` = its first units, `unitsTotal`)
   * @param {any} [delta] this run's delta from the change that caused the fetch (undefined: unknown)
   */
  take(run, delta) {
    const total = run.unitsTotal ?? run.units.length;
    const first = run.units;
    const canPatch =
      this.complete &&
      delta?.kind === 'changed' &&
      !delta.unitsRemoved?.length &&
      total === this.total &&
      (delta.units?.length ?? 0) <= MAX_PATCH;
    if (canPatch) {
      // The first screen is fresh from the page document; changed units beyond it come by id.
      this.units.put(
        first,
        first.map((/** @type {any} */ _, /** @type {number} */ i) => i),
      );
      const rest = (delta.units ?? []).filter(
        (/** @type {string} */ id) => !first.some((/** @type {any} */ u) => u.id === id),
      );
      if (rest.length) void this.patch(rest, ++this.gen);
      return this.units;
    }
    this.units = new UnitTable();
    this.units.append(first);
    this.total = total;
    this.complete = this.units.length >= total;
    if (!this.complete) void this.fill(++this.gen);
    return this.units;
  }

  /** @param {string[]} ids @param {number} gen */
  async patch(ids, gen) {
    const q = ids.map((id) => `id=${uriPart(id)}`).join('&');
    if (q.length > 6000) return this.restart(gen);
    try {
      const { data } = await getJson(`${this.base}/units?${q}`, { keep: false });
      if (gen !== this.gen) return;
      const at = new Map(this.units.ids.map((id, i) => [id, i]));
      const found = data.units.filter((/** @type {any} */ u) => at.has(u.id));
      this.units.put(
        found,
        found.map((/** @type {any} */ u) => /** @type {number} */ (at.get(u.id))),
      );
      this.onMore();
    } catch {
      // The run changed again meanwhile: the next change re-fetches.
    }
  }

  /** @param {number} gen */
  async restart(gen) {
    this.units = new UnitTable();
    this.complete = false;
    return this.fill(gen);
  }

  /** @param {number} gen */
  async fill(gen) {
    while (gen === this.gen && this.units.length < this.total) {
      let text;
      try {
        text = await getText(`${this.base}/units?offset=${this.units.length}&limit=${UNIT_PAGE}`);
      } catch {
        return;
      }
      if (gen !== this.gen) return;
      // The page's text is held as it is, its units found in it, not parsed (`splitUnits`); any other shape is parsed.
      const split = splitUnits(text);
      let data;
      try {
        data = split ? split.doc : JSON.parse(text);
      } catch {
        return;
      }
      if (data.total !== this.total) {
        // The run changed between pages: start over (a change event is on its way too).
        this.total = data.total;
        this.units = new UnitTable();
        continue;
      }
      const count = split ? split.spans.length / 2 : data.units.length;
      if (count === 0) break;
      if (split) this.units.appendText(text, split.spans);
      else this.units.append(data.units);
      this.complete = this.units.length >= this.total;
      this.onMore();
    }
  }
}
