// @ts-check
import { h } from './dom.js';

/**
 * A list that renders only the rows in view (plus a margin), so a run of 10,000 units scrolls like one of ten.
 * Rows have one fixed height; the container scrolls by itself. With `update`, rows that scroll out are filled
 * with the items that scroll in instead of being made anew (a fast scroll replaces every row on every frame:
 * reusing them keeps each frame short).
 * @template T
 */
export class VirtualList {
  /**
   * @param {{ rowHeight: number, render: (item: T, index: number) => HTMLElement, label: string,
   *   update?: (row: HTMLElement, item: T, index: number, light: boolean) => void,
   *   maxHeight?: () => number, onSelect?: (item: T, index: number) => void, className?: string }} opts
   */
  constructor(opts) {
    this.opts = opts;
    /** @type {T[]} */
    this.items = [];
    this.selected = -1;
    /** @type {Map<number, HTMLElement>} */
    this.rows = new Map();
    /** @type {HTMLElement[]} rows out of view, kept for reuse (with `update`) */
    this.spare = [];
    /** @type {Set<number>} rows filled in brief during a fast scroll, filled in full once it slows */
    this.light = new Set();
    this.lastTop = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.settle = undefined;
    this.inner = h('div', { class: 'vlist-inner', role: 'presentation' });
    this.el = h(
      'div',
      { class: `vlist ${opts.className ?? ''}`, role: 'list', 'aria-label': opts.label, tabindex: '0' },
      this.inner,
    );
    this.frame = 0;
    this.el.addEventListener('scroll', () => this.schedule(), { passive: true });
    this.el.addEventListener('click', (ev) => {
      const row = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (ev.target).closest('.vrow'));
      if (row && !(/** @type {HTMLElement} */ (ev.target).closest('a')))
        this.select(Number(row.dataset.index), false);
    });
    new ResizeObserver(() => this.schedule()).observe(this.el);
  }

  /** Replaces the items, keeping the scroll position (a live refresh must not jump). @param {T[]} items */
  setItems(items) {
    this.items = items;
    if (this.selected >= items.length) this.selected = items.length - 1;
    const rh = this.opts.rowHeight;
    this.inner.style.height = `${items.length * rh}px`;
    const max = this.opts.maxHeight ? this.opts.maxHeight() : 600;
    this.el.style.height = `${Math.max(rh, Math.min(items.length * rh, max))}px`;
    for (const r of this.rows.values()) r.remove();
    this.rows.clear();
    this.spare = [];
    this.light.clear();
    this.render();
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render(true);
    });
  }

  /**
   * Shows the rows in view. A scroll that jumped more than a screen since the last frame (a fling, a drag of the
   * scroll bar) gets rows filled in brief, which are filled in full once the scroll slows or stops: every frame of
   * a fast scroll stays short.
   * @param {boolean} [scrolled] called for a scroll event
   */
  render(scrolled = false) {
    const rh = this.opts.rowHeight;
    const top = this.el.scrollTop;
    const height = this.el.clientHeight || rh * 20;
    const update = this.opts.update;
    const fast = Boolean(update) && scrolled && Math.abs(top - this.lastTop) > height;
    this.lastTop = top;
    const margin = fast ? 0 : 8;
    const first = Math.max(0, Math.floor(top / rh) - margin);
    const last = Math.min(this.items.length - 1, Math.ceil((top + height) / rh) + margin);
    for (const [i, row] of this.rows)
      if (i < first || i > last) {
        this.rows.delete(i);
        this.light.delete(i);
        if (update) this.spare.push(row);
        else row.remove();
      } else if (update && !fast && this.light.delete(i))
        update(row, /** @type {T} */ (this.items[i]), i, false);
    const frag = document.createDocumentFragment();
    for (let i = first; i <= last; i++) {
      if (this.rows.has(i)) continue;
      const item = /** @type {T} */ (this.items[i]);
      let row = update ? this.spare.pop() : undefined;
      if (row && update) {
        update(row, item, i, fast);
        if (fast) this.light.add(i);
        row.classList.toggle('sel', i === this.selected);
        if (!row.isConnected) frag.appendChild(row);
      } else {
        row = this.opts.render(item, i);
        row.classList.add('vrow');
        row.setAttribute('role', 'listitem');
        row.style.height = `${rh}px`;
        if (i === this.selected) row.classList.add('sel');
        frag.appendChild(row);
      }
      row.dataset.index = String(i);
      row.setAttribute('aria-posinset', String(i + 1));
      row.setAttribute('aria-setsize', String(this.items.length));
      row.style.transform = `translateY(${i * rh}px)`;
      this.rows.set(i, row);
    }
    // Rows not reused this time leave the document (and wait for the next frame's).
    for (const row of this.spare) row.remove();
    if (this.spare.length > 64) this.spare.length = 64;
    this.inner.appendChild(frag);
    if (this.settle) clearTimeout(this.settle);
    this.settle = this.light.size > 0 ? setTimeout(() => this.render(), 120) : undefined;
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
