// @ts-check
import { getJson } from './api.js';
import { h, replace, uriPart } from './dom.js';
import { duration, when } from './fmt.js';
import { HistoryList } from './history.js';
import { unitDetail } from './unit-detail.js';
import { UnitTable } from './unit-table.js';
import { VirtualList } from './vlist.js';

const ROW = 36;

/**
 * The time span the timeline column covers: first start to last end of any unit or attempt.
 * @param {any} run @param {UnitTable} table the run's units
 */
function spanOf(run, table) {
  let lo = Infinity;
  let hi = -Infinity;
  /** @param {string | undefined} iso */
  const see = (iso) => {
    if (!iso) return;
    const t = Date.parse(iso);
    if (Number.isNaN(t)) return;
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  };
  see(run.createdAt);
  see(run.updatedAt);
  see(run.finishedAt);
  for (let i = 0; i < table.length; i++) {
    const u = table.get(i);
    see(u.startedAt);
    see(u.finishedAt);
    for (const a of u.attempts) {
      see(a.startedAt);
      see(a.endedAt);
    }
  }
  if (!Number.isFinite(lo)) return undefined;
  return { lo, hi: Math.max(hi, lo + 1000) };
}

/**
 * The segments of a unit's timeline track: its attempts (a unit without attempts is one segment of its own times).
 * @param {any} u
 * @returns {{ s: string, e: string | undefined, tone: string, label: string }[]}
 */
function segmentsOf(u) {
  if (u.attempts.length)
    return u.attempts.map((/** @type {any} */ a) => ({
      s: a.startedAt,
      e: a.endedAt,
      tone: a.tone,
      label: `attempt ${a.attempt}: ${a.status}`,
    }));
  return u.startedAt ? [{ s: u.startedAt, e: u.finishedAt, tone: u.tone, label: u.status }] : [];
}

/**
 * Draws a unit's attempts into its timeline track as bars, reusing the bars the track holds (a list row filled
 * with another unit) and writing only what differs (a row that scrolls in costs the browser one style and layout
 * pass for what changed). Each bar's tooltip is made when the pointer reaches it (`segmentTitle`).
 * @param {HTMLElement} track @param {any} u @param {{lo:number,hi:number}} span
 */
function fillTrack(track, u, span) {
  const w = span.hi - span.lo;
  const parts = u.attempts.length ? u.attempts : u.startedAt ? undefined : NONE;
  const count = parts ? parts.length : 1;
  let n = 0;
  let bar = /** @type {HTMLElement | null} */ (track.firstElementChild);
  for (let k = 0; k < count; k++) {
    const p = parts ? parts[k] : u;
    const start = p.startedAt;
    const end = p === u ? u.finishedAt : p.endedAt;
    const s = Date.parse(start);
    if (Number.isNaN(s)) continue;
    const e = end ? Date.parse(end) : p.tone === 'active' ? span.hi : s;
    if (!bar) bar = /** @type {HTMLElement} */ (track.appendChild(h('span')));
    n++;
    // What the bar shows, kept beside it: compared as numbers, the style's text is made (and the bar restyled)
    // only when it differs, and nothing is read back from the style (each read makes a string).
    let held = barOf.get(bar);
    if (!held) {
      held = { tone: UNSET, left: Number.NaN, width: Number.NaN };
      barOf.set(bar, held);
    }
    if (held.tone !== p.tone) {
      setClass(bar, `seg-bar tone-${p.tone}`);
      held.tone = p.tone;
    }
    const left = (100 * (s - span.lo)) / w;
    const width = (100 * Math.max(0, e - s)) / w;
    if (!Object.is(held.left, left)) {
      bar.style.left = `${left}%`;
      held.left = left;
    }
    if (!Object.is(held.width, width)) {
      bar.style.width = `${width}%`;
      held.width = width;
    }
    bar = /** @type {HTMLElement | null} */ (bar.nextElementSibling);
  }
  while (track.children.length > n) track.lastElementChild?.remove();
  return track;
}

/** @type {any[]} */
const NONE = [];
/** A bar's tone before `fillTrack` wrote one (any tone differs from it, even none). */
const UNSET = {};

/**
 * Each timeline bar's tone and place as last written by `fillTrack` (a bar is only ever written there).
 * @type {WeakMap<Element, { tone: unknown, left: number, width: number }>}
 */
const barOf = new WeakMap();

/** The tooltip of bar `k` of a unit's track. @param {any} u @param {number} k */
function segmentTitle(u, k) {
  const p = segmentsOf(u).filter((x) => !Number.isNaN(Date.parse(x.s)))[k];
  return p ? `${p.label}: ${when(p.s)} → ${p.e ? when(p.e) : 'no end'}` : '';
}

/** Checklist items done. @param {any[]} checks */
function doneOf(checks) {
  let done = 0;
  for (let k = 0; k < checks.length; k++) if (checks[k].done) done++;
  return done;
}

/** @param {Element} el @param {string} c */
function setClass(el, c) {
  if (el.className !== c) el.className = c;
}

/** Sets an element's text, changing its one text node in place when it has one. @param {Element} el @param {string} text */
function setText(el, text) {
  const t = el.firstChild;
  if (t && t.nodeType === Node.TEXT_NODE && !t.nextSibling) {
    if (/** @type {Text} */ (t).data !== text) /** @type {Text} */ (t).data = text;
  } else if (text || t) el.textContent = text;
}

/** @param {HTMLElement} el @param {string} title */
function setTitle(el, title) {
  if (el.title !== title) el.title = title;
}

/**
 * The units section: a status filter, a search, a virtual list with a timeline column, and the selected
 * unit's detail (attempts, dependencies, evidence, artifacts). Selection is a deep link (`#unit-<id>`).
 */
export class UnitsSection {
  /** @param {{ runRef: string, unitUrl?: (id: string) => string, onSelect: (id: string) => void }} opts */
  constructor(opts) {
    this.opts = opts;
    /** @type {any} */
    this.run = undefined;
    /** @type {UnitTable} every unit held */
    this.units = new UnitTable();
    /** @type {number[]} the units the list shows (filter, search), by index in `units` */
    this.shown = [];
    this.statusFilter = '';
    this.query = '';
    /** @type {string | undefined} */
    this.selectedId = undefined;
    this.span = undefined;
    /** @type {any} the last unit fetched in full, for the detail */
    this.full = undefined;
    /** @type {HistoryList | undefined} */
    this.history = undefined;
    /** @type {string | undefined} */
    this.historyFor = undefined;
    this.count = h('span', { class: 'count' });
    this.filter = /** @type {HTMLSelectElement} */ (
      h('select', { class: 'select', 'aria-label': 'Filter units by status' })
    );
    this.search = /** @type {HTMLInputElement} */ (
      h('input', {
        id: 'search',
        class: 'search',
        type: 'search',
        placeholder: 'Find unit   /',
        'aria-label': 'Find a unit by id',
        autocomplete: 'off',
      })
    );
    this.axis = h('span', { class: 'axis c-time' });
    // The list's items are indexes in `units`; a row makes its unit again from the table when it is filled.
    /** @type {VirtualList<number>} */
    this.list = new VirtualList({
      rowHeight: ROW,
      label: 'Units',
      maxHeight: () => Math.max(220, Math.round(window.innerHeight * 0.62)),
      render: (k) => this.row(this.units.get(k)),
      update: (row, k) => this.fill(row, this.units.get(k)),
      // A fling: the units' ids, the rest once the scroll slows.
      brief: (k) => /** @type {string} */ (this.units.ids[k]),
      onSelect: (k) => this.pick(/** @type {string} */ (this.units.ids[k]), true),
    });
    // A timeline bar's tooltip, made when the pointer reaches it (not for every row that scrolls by).
    this.list.el.addEventListener('mouseover', (ev) => {
      const bar = /** @type {HTMLElement} */ (ev.target);
      if (!bar.classList.contains('seg-bar')) return;
      const row = /** @type {HTMLElement | null} */ (bar.closest('.vrow'));
      const i = row ? this.list.indexOf.get(row) : undefined;
      const k = i === undefined ? undefined : this.shown[i];
      const u = k === undefined ? undefined : this.units.get(k);
      if (u) bar.title = segmentTitle(u, [...(bar.parentElement?.children ?? [])].indexOf(bar));
    });
    this.detail = h('div', { class: 'unit-detail', hidden: true, 'aria-live': 'polite' });
    this.hint = h(
      'p',
      { class: 'unit-hint' },
      'Select a unit (click, or j / k) to see its attempts, dependencies and evidence.',
    );
    this.filter.addEventListener('change', () => {
      this.statusFilter = this.filter.value;
      this.apply();
    });
    this.search.addEventListener('input', () => {
      this.query = this.search.value.trim().toLowerCase();
      this.apply();
    });
    this.el = h(
      'section',
      { class: 'panel section-anchor', id: 'units', 'aria-labelledby': 'units-title' },
      h(
        'header',
        null,
        h('h2', { id: 'units-title' }, 'Units ', this.count),
        h('div', { class: 'unit-tools' }, this.filter, this.search),
      ),
      h(
        'div',
        { class: 'units-head', 'aria-hidden': 'true' },
        h('span', null, 'Status'),
        h('span', null, 'Unit'),
        h('span', null, 'Attempts'),
        h('span', { class: 'c-checks' }, 'Checks'),
        h('span', { class: 'c-dur' }, 'Duration'),
        this.axis,
      ),
      this.list.el,
      this.hint,
      this.detail,
    );
  }

  /** @param {any} u */
  row(u) {
    const row = h(
      'div',
      { class: 'unit-row' },
      h('span'),
      h('span', { class: 'uid' }),
      h('span'),
      h('span', { class: 'checks' }),
      h('span', { class: 'dur' }),
      this.span ? h('div', { class: 'track', 'aria-hidden': 'true' }) : h('span'),
    );
    this.fill(row, u);
    return row;
  }

  /**
   * Shows a unit in a row made by `row` (a new one, or one that scrolled out of view).
   * @param {HTMLElement} row @param {any} u
   */
  fill(row, u) {
    // The row's cells by walking them (no array of them made for each row that scrolls in).
    const status = /** @type {HTMLElement} */ (row.firstElementChild);
    const uid = /** @type {HTMLElement} */ (status.nextElementSibling);
    const tries = /** @type {HTMLElement} */ (uid.nextElementSibling);
    const checks = /** @type {HTMLElement} */ (tries.nextElementSibling);
    const dur = /** @type {HTMLElement} */ (checks.nextElementSibling);
    const track = /** @type {HTMLElement} */ (dur.nextElementSibling);
    const n = u.attempts.length;
    setTitle(row, u.id);
    setText(uid, u.id);
    setClass(status, `pill tone-${u.tone}`);
    setTitle(status, u.status);
    setText(status, u.status);
    // triage: attempts in their column, checklist progress in its own (a resumable stage has both).
    setClass(tries, `tries${n > 1 ? ' retry' : ''}`);
    setTitle(tries, n ? '' : 'no attempt recorded');
    setText(tries, n > 1 ? `${n} tries` : n === 1 ? '1 try' : '—');
    setTitle(checks, u.checks ? 'checklist items done' : '');
    setText(checks, u.checks ? `${doneOf(u.checks)}/${u.checks.length} ✓` : '');
    setText(dur, duration(u.durationMs));
    if (this.span && track.classList.contains('track')) fillTrack(track, u, this.span);
  }

  /** @param {any} run @param {UnitTable} units every unit held (the run's `units` are the first ones only) */
  update(run, units) {
    this.run = run;
    this.units = units;
    // The page document carries the span (the server computed it over every unit): no pass over 10,000 units and
    // their attempts on every page of units that arrives.
    const lo = run.span ? Date.parse(run.span.from) : Number.NaN;
    this.span = Number.isNaN(lo)
      ? spanOf(run, units)
      : { lo, hi: Math.max(Date.parse(run.span.to), lo + 1000) };
    const statuses = Object.entries(run.counts);
    replace(
      this.filter,
      h('option', { value: '' }, `all ${units.length}`),
      statuses.map(([s, n]) => h('option', { value: s, selected: s === this.statusFilter }, `${s} ${n}`)),
    );
    replace(
      this.axis,
      this.span
        ? [
            h('span', null, when(new Date(this.span.lo).toISOString()).slice(5, 16)),
            h('span', null, when(new Date(this.span.hi).toISOString()).slice(5, 16)),
          ]
        : h('span', null, 'Timeline'),
    );
    this.count.textContent = String(units.length);
    this.el.hidden = units.length === 0;
    this.apply();
  }

  apply() {
    const q = this.query;
    const { ids, statuses } = this.units;
    this.shown = [];
    for (let k = 0; k < ids.length; k++)
      if (
        (!this.statusFilter || statuses[k] === this.statusFilter) &&
        (!q || /** @type {string} */ (ids[k]).toLowerCase().includes(q))
      )
        this.shown.push(k);
    const i = this.selectedId === undefined ? -1 : this.shown.findIndex((k) => ids[k] === this.selectedId);
    this.list.selected = i;
    this.list.setItems(this.shown);
    if (this.selectedId !== undefined) this.showDetail(this.units.indexOf(this.selectedId));
  }

  /** Selects a unit by id (from a deep link or a dependency link). @param {string} id @param {boolean} [fromList] */
  pick(id, fromList = false) {
    const { ids } = this.units;
    const index = ids.indexOf(id);
    this.selectedId = id;
    if (index < 0) return false;
    if (!fromList) {
      let i = this.shown.findIndex((k) => ids[k] === id);
      if (i < 0) {
        this.statusFilter = '';
        this.query = '';
        this.search.value = '';
        this.filter.value = '';
        this.apply();
        i = this.shown.findIndex((k) => ids[k] === id);
      }
      this.list.selected = i;
      this.list.reveal(i);
      this.list.rows.forEach((r, k) => r.classList.toggle('sel', k === i));
    }
    this.showDetail(index);
    this.opts.onSelect(id);
    return true;
  }

  /** @param {number} d */
  move(d) {
    // Nothing selected yet: start from the first row in view, not from the top of a long list.
    const first = Math.ceil(this.list.el.scrollTop / ROW);
    this.list.select(this.list.selected < 0 ? first : this.list.selected + d);
  }

  /**
   * The unit's history list, kept while the same unit stays selected (its filter survives live refreshes);
   * units are addressed by index, as an id may be any length.
   * @param {any} u @param {number} index its index in the run's units
   */
  historyOf(u, index) {
    const slash = this.opts.runRef.indexOf('/');
    const base = `/api/runs/${uriPart(this.opts.runRef.slice(0, slash))}/${uriPart(this.opts.runRef.slice(slash + 1))}`;
    const url = `${base}/history?unit=${index}`;
    if (this.history?.opts.url !== url || this.historyFor !== u.id) {
      this.history = new HistoryList({ url, runRef: this.opts.runRef, label: `History of ${u.id}` });
      this.historyFor = u.id;
    }
    this.history.refresh();
    return this.history.el;
  }

  /** The detail of the unit at `index` in `units` (-1: none). @param {number} index */
  showDetail(index) {
    const u = index < 0 ? undefined : this.units.get(index);
    if (!u) {
      this.detail.hidden = true;
      return;
    }
    this.detail.hidden = false;
    this.hint.hidden = true;
    // A slim unit (the page document's) shows at once, then in full when its attempts and evidence arrive.
    // Until then a live refresh keeps showing the last full copy of the same unit, so the detail does not flicker.
    const held = this.full?.id === u.id ? this.full : u;
    const history = this.historyOf(u, index);
    replace(this.detail, unitDetail(held, this.opts.runRef, history));
    if (!u.slim || !this.opts.unitUrl) return;
    const want = u.id;
    getJson(this.opts.unitUrl(u.id)).then(
      ({ data, changed }) => {
        if (this.selectedId !== want) return;
        this.full = data.unit;
        if (changed || held !== data.unit)
          replace(this.detail, unitDetail(data.unit, this.opts.runRef, this.history?.el));
      },
      () => {
        // The run changed meanwhile (the unit is gone): the next refresh re-renders the list.
      },
    );
  }
}
