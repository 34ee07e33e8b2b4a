// @ts-check
import { h } from './dom.js';
import { FramePace } from './pace.js';

/** Rows kept out of the document for reuse, at most. */
const SPARE = 64;
/** Rows kept filled above and below the view. */
const MARGIN = 8;
/** Rows of the margin (out of view) filled in one frame of a scroll of a list without names; the rest later. */
const MARGIN_PER_FRAME = 6;
/** Once a scroll shows the items' names, rows come back when a frame moves it by no more than this share of the
 * rows a frame may fill (the rest of the frame's rows catch up with the view). */
const CATCH_UP = 3 / 4;
/** Lines of names the block holds ahead of the view: this many frames' worth at the scroll's speed ... */
const BRIEF_AHEAD = 4;
/** ... up to this many screens' worth (a frame's text costs the browser little more for more lines). */
const BRIEF_SCREENS = 3;
/** The page's ornaments (the run's blinking status dot) stand still until this long after a list's last scroll. */
const STILL_MS = 200;

/**
 * A list that renders only the rows in view (plus a margin), so a run of 10,000 units scrolls like one of ten.
 * Rows have one fixed height and sit at `translateY(index × height)` in a `contain: strict` box; the container
 * scrolls by itself. The scroll listener is passive and only asks for an animation frame, where the rows are
 * placed; the one layout read of a frame (`scrollTop`) comes before any write, and the list's height is kept from
 * a ResizeObserver, never read while scrolling.
 *
 * With `update`, rows that scroll out are filled with the items that scroll in instead of being made anew. With
 * `brief` too, a frame fills at most the rows this machine fills in a frame's time (`FramePace`, from what the
 * list's recent frames cost: a fast machine fills a quick wheel's rows, a throttled or busy one fewer), and a frame
 * that brings more rows into view than that (a fling, a drag of the scroll bar, a quick swipe, or a slower scroll
 * on a slow machine) shows, instead of rows, one block of text with each item's name on its line (one text node to
 * change a frame, where the rows are a dozen elements each to restyle, lay out and paint); it stays so until a
 * frame moves the list by clearly fewer rows than a frame may fill, or 120 ms after the scroll stops; then the rows
 * come back, a frame's share at a time, each drawn over its name (the rows must be opaque), not a screen of rows in
 * one long frame. The block is rewritten only when the view leaves the lines it holds, and then holds lines ahead
 * of the scroll, so most frames of a slower scroll change nothing but the scroll offset.
 * @template T
 */
export class VirtualList {
  /**
   * @param {{ rowHeight: number, render: (item: T, index: number) => HTMLElement, label: string,
   *   update?: (row: HTMLElement, item: T, index: number) => void,
   *   brief?: (item: T) => string,
   *   maxHeight?: () => number, onSelect?: (item: T, index: number) => void, className?: string }} opts
   */
  constructor(opts) {
    this.opts = opts;
    /** @type {T[]} */
    this.items = [];
    this.selected = -1;
    /** @type {Map<number, HTMLElement>} rows in the document, by item index */
    this.rows = new Map();
    /** @type {WeakMap<HTMLElement, number>} the item index each row shows (for clicks) */
    this.indexOf = new WeakMap();
    /** @type {HTMLElement[]} rows out of view, kept for reuse (with `update`) */
    this.spare = [];
    /** The names of the items in view during a fling, a line each (with `brief`). */
    this.text = document.createTextNode('');
    this.sheet = h('div', { class: 'vlist-brief', 'aria-hidden': 'true', hidden: true }, this.text);
    /** The items whose names the block holds, first and last (-1: none). */
    this.briefFirst = -1;
    this.briefLast = -1;
    /** Rows coming back over the names, a few a frame (the rows not filled yet are out of sight). */
    this.filling = false;
    /** What a frame costs here, measured: how many rows a frame of a scroll may fill (with `brief`). */
    this.pace = new FramePace();
    /** @type {{ t0: number, rows: number } | undefined} the frame being measured */
    this.sample = undefined;
    // A message posted in a frame's callback runs once the frame is drawn.
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      if (this.sample) this.pace.record(performance.now() - this.sample.t0, this.sample.rows);
      this.sample = undefined;
    };
    this.port = channel.port2;
    this.lastTop = 0;
    /** The list's height in CSS pixels, from the ResizeObserver (0: not known yet). */
    this.height = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.settle = undefined;
    this.inner = h('div', { class: 'vlist-inner', role: 'presentation' });
    this.el = h(
      'div',
      { class: `vlist ${opts.className ?? ''}`, role: 'list', 'aria-label': opts.label, tabindex: '0' },
      // The names under the rows: a row filled over its name hides it.
      this.sheet,
      this.inner,
    );
    this.frame = 0;
    this.el.addEventListener(
      'scroll',
      () => {
        this.schedule();
        still();
      },
      { passive: true },
    );
    this.el.addEventListener('click', (ev) => {
      const row = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (ev.target).closest('.vrow'));
      const i = row ? this.indexOf.get(row) : undefined;
      if (i !== undefined && !(/** @type {HTMLElement} */ (ev.target).closest('a'))) this.select(i, false);
    });
    new ResizeObserver((entries) => {
      this.height = entries.at(-1)?.contentRect.height ?? 0;
      this.schedule();
    }).observe(this.el);
  }

  /** Replaces the items, keeping the scroll position (a live refresh must not jump). @param {T[]} items */
  setItems(items) {
    this.items = items;
    if (this.selected >= items.length) this.selected = items.length - 1;
    const rh = this.opts.rowHeight;
    this.inner.style.height = `${items.length * rh}px`;
    const max = this.opts.maxHeight ? this.opts.maxHeight() : 600;
    this.el.style.height = `${Math.max(rh, Math.min(items.length * rh, max))}px`;
    // The rows in the document are filled again (with `update`), not made anew.
    for (const row of this.rows.values()) this.release(row);
    this.rows.clear();
    this.render();
  }

  /** @param {HTMLElement} row */
  release(row) {
    if (this.opts.update) this.spare.push(row);
    else row.remove();
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render(true);
    });
  }

  /**
   * Shows the items in view: their names while a scroll brings in more rows a frame than this machine fills in a
   * frame's time (`pace`), rows otherwise. During a scroll, the rows in view come first, then the margin nearest the
   * view, within the frame's rows; the rest in the next frames (after a fling, a screen of rows and both margins at
   * once would be one long frame). When a scroll that showed the names slows or stops, the rows come back as many a
   * frame, each over its name (`filling`).
   * @param {boolean} [scrolled] called for a scroll event (or a resize)
   * @param {boolean} [paced] fill no more rows than a frame's share (default: during a scroll)
   */
  render(scrolled = false, paced = scrolled) {
    const t0 = scrolled ? performance.now() : -1;
    const rh = this.opts.rowHeight;
    const top = this.el.scrollTop;
    const height = this.height || rh * 20;
    const { update, brief } = this.opts;
    const briefs = Boolean(update && brief);
    const moved = top - this.lastTop;
    this.lastTop = top;
    if (this.settle) clearTimeout(this.settle);
    this.settle = undefined;
    // As many rows every frame (a screen and the margin on each side): as many scroll in as out, so rows are
    // refilled in place and none leaves the document and comes back.
    const first = Math.max(0, Math.floor(top / rh) - MARGIN);
    const last = Math.min(this.items.length - 1, first + Math.ceil(height / rh) + 2 * MARGIN + 1);
    const v0 = Math.max(first, Math.floor(top / rh));
    const v1 = Math.min(last, Math.ceil((top + height) / rh));
    // Rows this frame may fill (with `brief`): what this machine fills in a frame's time, measured (`allowed`), and
    // what it fills (`share`: fewer while it measures again).
    const allowed = briefs && paced ? this.pace.rows() : Number.POSITIVE_INFINITY;
    const share = briefs && paced ? this.pace.fill() : Number.POSITIVE_INFINITY;
    let need = 0;
    for (let i = v0; i <= v1; i++) if (!this.rows.has(i)) need++;
    // The names: when a scroll brings more rows into view than the frame may fill, and until a frame moves the list
    // by clearly fewer (so the rows catch up, and the list does not switch between the two every other frame).
    const named = !this.sheet.hidden;
    const fast =
      briefs &&
      scrolled &&
      (named ? Math.abs(moved) > allowed * CATCH_UP * rh : moved !== 0 && need > allowed);
    if (fast && brief) {
      const rewrote = this.fling(top, height, moved, brief);
      this.settle = setTimeout(() => this.render(false, true), 120);
      if (!rewrote) this.measure(t0, 0);
      return;
    }
    // Back from the names during a scroll (or as it stops): the frame's rows, each drawn over its name (the rows
    // are opaque, above the block), the rows not filled yet out of sight (`filling`); not a screen of rows at once.
    const gradual = briefs && named && paced;
    let rewrote = false;
    if (gradual && brief) {
      if (!this.filling) {
        this.filling = true;
        // The rows kept in the document still show their old items: out of sight (above the list's box, which
        // clips them) until filled, their contents skipped: out of sight alone, the browser paints every one of
        // them again in this frame (the list's box leaves `content-visibility: hidden`; under 4x throttling
        // ~45 ms of paint). Moving a row and skipping its contents are style changes of its own box only (hiding
        // it would restyle every element in it).
        for (let k = 0; k < this.spare.length; k++) {
          const row = /** @type {HTMLElement} */ (this.spare[k]);
          if (row.isConnected) {
            row.style.transform = 'translateY(-100%)';
            row.style.contentVisibility = 'hidden';
          }
        }
      }
      rewrote = this.names(top, height, moved, brief);
    }
    if (this.inner.style.contentVisibility) this.inner.style.contentVisibility = '';
    // (forEach, not for-of: no [index, row] pair made for each row in every frame of a scroll.)
    this.rows.forEach((row, i) => {
      if (i < first || i > last) {
        this.rows.delete(i);
        this.release(row);
      }
    });
    const size = String(this.items.length);
    const frag = document.createDocumentFragment();
    // Rows of this frame besides those in view (all of them while filling): with `brief`, what is left of the
    // frame's share; without, at most MARGIN_PER_FRAME during a scroll.
    let left = gradual
      ? share
      : briefs
        ? share - need
        : scrolled
          ? MARGIN_PER_FRAME
          : Number.POSITIVE_INFINITY;
    let filled = 0;
    // In view first, then the margin nearest the view.
    for (let k = 0, i = v0; i >= first && i <= last; k++, i = this.nth(k, v0, v1, first, last)) {
      if (this.rows.has(i)) continue;
      if ((gradual || i < v0 || i > v1) && left-- <= 0) {
        this.schedule();
        break;
      }
      const item = /** @type {T} */ (this.items[i]);
      let row = update ? this.spare.pop() : undefined;
      if (row && update) update(row, item, i);
      else row = this.fresh(this.opts.render(item, i));
      if (row.classList.contains('sel') !== (i === this.selected)) row.classList.toggle('sel');
      if (!row.isConnected) frag.appendChild(row);
      this.indexOf.set(row, i);
      row.setAttribute('aria-posinset', String(i + 1));
      if (row.getAttribute('aria-setsize') !== size) row.setAttribute('aria-setsize', size);
      row.style.transform = `translateY(${i * rh}px)`;
      if (row.style.contentVisibility) row.style.contentVisibility = '';
      this.rows.set(i, row);
      filled++;
    }
    if (this.filling && this.rows.size < last - first + 1) this.park(true);
    else {
      // Every row filled: the names go, and so do the rows not shown (kept out of sight while filling).
      this.filling = false;
      if (!this.sheet.hidden) this.sheet.hidden = true;
      this.park();
    }
    if (frag.firstChild) this.inner.appendChild(frag);
    if (briefs && !rewrote) this.measure(t0, filled);
  }

  /**
   * Measures what a frame of a scroll costs (its main-thread time until the frame is drawn: a message posted now
   * runs after the frame's style, layout, paint and commit) for `pace`. Frames that rewrote the names are not
   * counted (their cost is the text's, not the rows').
   * @param {number} t0 the frame's start (-1: not a frame of a scroll) @param {number} rows rows it filled
   */
  measure(t0, rows) {
    if (t0 < 0) return;
    this.sample = { t0, rows };
    this.port.postMessage(null);
  }

  /**
   * The k-th index to fill: the view [v0, v1] in order, then the margin by distance from the view, below first.
   * -1 when done. @param {number} k @param {number} v0 @param {number} v1 @param {number} first @param {number} last
   */
  nth(k, v0, v1, first, last) {
    if (v0 + k <= v1) return v0 + k;
    let d = k - (v1 - v0);
    // Past the view: below and above alternately, skipping a side once it is used up.
    for (let step = 1; ; step++) {
      const below = v1 + step <= last;
      const above = v0 - step >= first;
      if (!below && !above) return -1;
      if (below && --d === 0) return v1 + step;
      if (above && --d === 0) return v0 - step;
    }
  }

  /**
   * Rows not shown this frame leave the document (and wait for a later frame's), unless `keep` (the rows are hidden
   * meanwhile), at most SPARE of them.
   * @param {boolean} [keep]
   */
  park(keep = false) {
    this.spare.forEach((row, k) => {
      if (row.isConnected && (!keep || k >= SPARE)) row.remove();
    });
    if (this.spare.length > SPARE) this.spare.length = SPARE;
  }

  /**
   * A fling's frame: the names of the items in view, a line each, in one block; the rows hidden. True when the
   * block was rewritten.
   * @param {number} top @param {number} height @param {number} moved since the last frame (px)
   * @param {(item: T) => string} brief
   */
  fling(top, height, moved, brief) {
    if (this.rows.size) {
      for (const row of this.rows.values()) this.release(row);
      this.rows.clear();
      // The rows stay in the document, skipped while hidden (not drawn, not in the accessibility tree): showing
      // them again refills them in place instead of making their boxes anew, and hiding them is one style change.
      this.park(true);
    }
    if (!this.inner.style.contentVisibility) this.inner.style.contentVisibility = 'hidden';
    return this.names(top, height, moved, brief);
  }

  /**
   * The block of names: at least the items in view, a line each, at the first one's place. It is written only when
   * the view leaves the lines it holds, and then holds lines ahead of the view too, so the next frames of a scroll
   * find theirs already laid out (a frame that changes no text costs the scroll alone); a frame that moves a screen
   * or more (a fling) gets the view only. True when the block was rewritten.
   * @param {number} top @param {number} height @param {number} moved since the last frame (px)
   * @param {(item: T) => string} brief
   */
  names(top, height, moved, brief) {
    const rh = this.opts.rowHeight;
    const first = Math.max(0, Math.floor(top / rh));
    const last = Math.min(this.items.length - 1, Math.ceil((top + height) / rh));
    const rewrite = this.sheet.hidden || first < this.briefFirst || last > this.briefLast;
    if (rewrite) {
      const step = Math.ceil(Math.abs(moved) / rh);
      const screen = last - first;
      const ahead = step < screen ? Math.min(BRIEF_SCREENS * screen, BRIEF_AHEAD * step) : 0;
      const a = moved < 0 ? Math.max(0, first - ahead) : first;
      const b = moved > 0 ? Math.min(this.items.length - 1, last + ahead) : last;
      let text = '';
      for (let i = a; i <= b; i++) text += `${i > a ? '\n' : ''}${brief(/** @type {T} */ (this.items[i]))}`;
      this.text.data = text;
      this.sheet.style.transform = `translateY(${a * rh}px)`;
      this.briefFirst = a;
      this.briefLast = b;
    }
    if (this.sheet.hidden) this.sheet.hidden = false;
    return rewrite;
  }

  /** A new row element, made a list item of one row's height. @param {HTMLElement} row */
  fresh(row) {
    row.classList.add('vrow');
    row.setAttribute('role', 'listitem');
    row.style.height = `${this.opts.rowHeight}px`;
    return row;
  }

  /** Selects a row, scrolling it into view. @param {number} index @param {boolean} [scroll] */
  select(index, scroll = true) {
    if (this.items.length === 0) return;
    const i = Math.max(0, Math.min(this.items.length - 1, index));
    this.rows.get(this.selected)?.classList.remove('sel');
    this.selected = i;
    this.rows.get(i)?.classList.add('sel');
    if (scroll) this.scrollTo(i);
    this.opts.onSelect?.(/** @type {T} */ (this.items[i]), i);
  }

  /** @param {number} i */
  scrollTo(i) {
    const rh = this.opts.rowHeight;
    const top = i * rh;
    if (top < this.el.scrollTop) this.el.scrollTop = top;
    else if (top + rh > this.el.scrollTop + this.el.clientHeight)
      this.el.scrollTop = top + rh - this.el.clientHeight;
    this.render();
  }

  /** Scrolls so row i is near the top. @param {number} i */
  reveal(i) {
    this.el.scrollTop = Math.max(0, i * this.opts.rowHeight - this.opts.rowHeight * 2);
    this.render();
  }
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let stillTimer;
let scrolledAt = 0;

/**
 * While a list scrolls, the page's ornamental animations stand still (`scrolling` on the root; app.css): a CSS
 * animation is restyled in every frame the main thread draws, even one the compositor runs, and a scroll draws
 * every frame. They go on STILL_MS after the last scroll.
 */
function still() {
  scrolledAt = performance.now();
  if (stillTimer) return;
  const root = document.documentElement;
  root.classList.add('scrolling');
  const wait = () => {
    const rest = scrolledAt + STILL_MS - performance.now();
    if (rest > 0) stillTimer = setTimeout(wait, rest);
    else {
      stillTimer = undefined;
      root.classList.remove('scrolling');
    }
  };
  stillTimer = setTimeout(wait, STILL_MS);
}
