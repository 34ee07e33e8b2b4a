// @ts-check
import { getJson } from './api.js';
import { h, rawHref, replace, uriPart } from './dom.js';
import { when } from './fmt.js';

/** The tone each kind of event is shown in. */
const KIND_TONE = /** @type {Record<string, string>} */ ({
  created: 'neutral',
  started: 'active',
  finished: 'ok',
  failed: 'error',
  retried: 'warning',
  blocked: 'error',
  approved: 'ok',
  lock: 'neutral',
  check: 'ok',
  phase: 'active',
  iteration: 'active',
  decision: 'warning',
  updated: 'neutral',
  finding: 'error',
  resolved: 'ok',
  log: 'neutral',
});
/** Entries drawn at once; the rest on request (a run-level history can hold 100,000 events). */
const PAGE = 200;

/**
 * A history: a filter by kind (toggle buttons with counts), then one row per event, oldest first: time, kind,
 * the units it concerns (run level), the text, and the file and line it was read from (a link to the raw view
 * at that line). Keeps its filter and length across live refreshes.
 */
export class HistoryList {
  /**
   * @param {{ url: string, runRef: string, showUnits?: boolean, unitHref?: (id: string) => string, label: string }} opts
   */
  constructor(opts) {
    this.opts = opts;
    /** @type {Set<string>} kinds hidden by the reader */
    this.hidden = new Set();
    this.limit = PAGE;
    /** @type {any} */
    this.doc = undefined;
    this.filters = h('div', {
      class: 'hist-kinds',
      role: 'group',
      'aria-label': `${opts.label}: filter by kind`,
    });
    this.list = h('ol', { class: 'hist-list', 'aria-label': opts.label });
    this.more = h('p', { class: 'hist-more' });
    this.el = h(
      'div',
      { class: 'history', dataset: { state: 'loading' } },
      this.filters,
      this.list,
      this.more,
    );
  }

  /** The kinds shown, when some are hidden (the server filters and pages: a run can hold 100,000 events). */
  pageUrl() {
    const q = new URLSearchParams({ limit: String(this.limit) });
    if (this.hidden.size > 0 && this.doc)
      q.set(
        'kinds',
        Object.keys(this.doc.kinds)
          .filter((k) => !this.hidden.has(k))
          .join(','),
      );
    return `${this.opts.url}${this.opts.url.includes('?') ? '&' : '?'}${q}`;
  }

  /** Fetches the page shown (a 304 when unchanged) and renders. */
  async refresh() {
    if (this.doc && Object.keys(this.doc.kinds).every((k) => this.hidden.has(k))) {
      this.render();
      return;
    }
    try {
      const { data, changed } = await getJson(this.pageUrl());
      if (!changed && this.doc) return;
      this.doc = data;
      this.render();
    } catch (e) {
      this.el.dataset.state = 'error';
      replace(
        this.list,
        h('li', { class: 'error-box' }, `Cannot load the history: ${/** @type {Error} */ (e).message}`),
      );
    }
  }

  render() {
    const d = this.doc;
    const kinds = Object.entries(d.kinds);
    replace(
      this.filters,
      kinds.length > 1
        ? kinds.map(([k, n]) =>
            h(
              'button',
              {
                type: 'button',
                class: `chip hist-kind tone-${KIND_TONE[k] ?? 'neutral'}`,
                'aria-pressed': String(!this.hidden.has(k)),
                dataset: { kind: k },
                title: this.hidden.has(k) ? `Show ${k} events` : `Hide ${k} events`,
                onclick: () => {
                  if (this.hidden.has(k)) this.hidden.delete(k);
                  else this.hidden.add(k);
                  this.limit = PAGE;
                  this.render();
                  this.refresh();
                },
              },
              h('span', { class: 'dot' }),
              k,
              ' ',
              h('b', null, String(n)),
            ),
          )
        : null,
    );
    // Filtered here too, so a click shows at once; the server's page (and its total) follows.
    const shown = d.entries.filter((/** @type {any} */ e) => !this.hidden.has(e.kind));
    const total = shown.length < d.entries.length ? shown.length : (d.total ?? shown.length);
    replace(
      this.list,
      shown.length
        ? shown.map((/** @type {any} */ e) => this.row(e))
        : h('li', { class: 'none' }, kinds.length ? 'No event of the chosen kinds.' : 'No recorded events.'),
    );
    replace(
      this.more,
      total > shown.length
        ? h(
            'button',
            {
              type: 'button',
              class: 'btn',
              onclick: () => {
                this.limit += PAGE * 5;
                this.refresh();
              },
            },
            `Show more (${total - shown.length} of ${total} not shown)`,
          )
        : null,
    );
    this.el.dataset.state = 'ready';
    this.el.dataset.count = String(shown.length);
    this.el.dataset.total = String(total);
  }

  /** @param {any} e */
  row(e) {
    const units =
      this.opts.showUnits && e.units.length
        ? h(
            'span',
            { class: 'hist-units' },
            e.units
              .slice(0, 3)
              .map((/** @type {string} */ u) =>
                this.opts.unitHref
                  ? h('a', { href: this.opts.unitHref(u), class: 'mono' }, u)
                  : h('span', { class: 'mono' }, u),
              ),
            e.units.length > 3 ? ` +${e.units.length - 3}` : null,
          )
        : null;
    return h(
      'li',
      { class: `hist-entry tone-${KIND_TONE[e.kind] ?? 'neutral'}`, dataset: { kind: e.kind } },
      h(
        'time',
        { class: 'mono', datetime: e.at ?? null, title: e.at ?? 'the file records no time' },
        e.at ? when(e.at) : '—',
      ),
      h('span', { class: 'hist-k' }, e.kind),
      h('span', { class: 'hist-text' }, units, h('span', null, e.text)),
      h(
        'a',
        {
          class: 'hist-src mono',
          href: rawHref(e.file, e.line, this.opts.runRef),
          title: `${e.file}, line ${e.line}`,
        },
        h('span', { class: 'hist-file' }, e.file.split('/').pop()),
        h('span', null, `:${e.line}`),
      ),
    );
  }
}

/**
 * The run-level history panel (every unit's events and the run's own), loaded when first opened.
 * @param {string} base the run's API URL @param {string} runRef
 */
export function historySection(base, runRef) {
  const list = new HistoryList({
    url: `${base}/history`,
    runRef,
    showUnits: true,
    unitHref: (id) => `#unit-${uriPart(id)}`,
    label: 'Run history',
  });
  const body = h('div', { class: 'body' });
  let opened = false;
  const details = h(
    'details',
    {
      class: 'hist-toggle',
      ontoggle: () => {
        if (/** @type {HTMLDetailsElement} */ (details).open && !opened) {
          opened = true;
          body.appendChild(list.el);
          list.refresh();
        }
      },
    },
    h(
      'summary',
      null,
      'Every event of the run, oldest first, each linking to the line of the file it comes from',
    ),
    body,
  );
  const el = h(
    'section',
    { class: 'panel section-anchor', id: 'history', 'aria-labelledby': 'history-title' },
    h('header', null, h('h2', { id: 'history-title' }, 'History')),
    details,
  );
  const openIfAsked = () => {
    if (location.hash === '#history') /** @type {HTMLDetailsElement} */ (details).open = true;
  };
  window.addEventListener('hashchange', openIfAsked);
  openIfAsked();
  return {
    el,
    /** Re-fetches on a live refresh, only once opened. */
    refresh: () => (opened ? list.refresh() : undefined),
    open: () => {
      /** @type {HTMLDetailsElement} */ (details).open = true;
    },
  };
}
