// @ts-check
import { getJson } from './api.js';

/** The favicon (static/favicon.svg) with a red badge holding `n`; the plain icon when n is 0. @param {number} n */
export function faviconWithCount(n) {
  if (n <= 0) return '/static/favicon.svg';
  const label = n > 99 ? '99+' : String(n);
  const size = label.length > 2 ? 11 : label.length > 1 ? 14 : 17;
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
    '<rect width="32" height="32" rx="7" fill="#2f6fdf"/>' +
    '<path d="M9 17.5l4.5 4.5L23 11" fill="none" stroke="#fff" stroke-width="3.4" stroke-linecap="round" stroke-linejoin="round"/>' +
    '<circle cx="22" cy="10" r="10" fill="#d92d20" stroke="#fff" stroke-width="1.5"/>' +
    `<text x="22" y="10" dy="0.36em" text-anchor="middle" font-family="Arial,Helvetica,sans-serif" font-weight="700" font-size="${size}" fill="#fff">${label}</text>` +
    '</svg>';
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** The number in front of a tab title: `(3) ` when 3 runs need a person. */
const PREFIX = /^\(\d+\) /;

/**
 * The tab shows how many runs need a person (attention level action or blocked, as core decided): `(n)` in front
 * of the title and a badge on the favicon. `update()` re-reads `/api/summaries` (a 304 when nothing changed) and is
 * called on every live change, of any run; `setTitle()` is how pages set their title so the count stays in front.
 */
export function tabCount() {
  let count = 0;
  let base = document.title.replace(PREFIX, '');
  let pending = false;
  const icon = /** @type {HTMLLinkElement} */ (document.querySelector('link[rel="icon"]'));
  const show = () => {
    document.title = count > 0 ? `(${count}) ${base}` : base;
    const href = faviconWithCount(count);
    if (icon.getAttribute('href') !== href) icon.setAttribute('href', href);
    document.body.dataset.attention = String(count);
  };
  const update = async () => {
    // Its own URL (the server ignores the query): the runs page's copy of /api/summaries keeps its own 304s.
    const { data } = await getJson('/api/summaries?for=tab');
    count = data.runs.filter(
      (/** @type {any} */ r) => r.attention.level === 'action' || r.attention.level === 'blocked',
    ).length;
    show();
  };
  return {
    update,
    /** Several changes in one turn of the event loop make one request. */
    soon() {
      if (pending) return;
      pending = true;
      setTimeout(() => {
        pending = false;
        update().catch(() => undefined);
      }, 0);
    },
    /** @param {string} title */
    setTitle(title) {
      base = title;
      show();
    },
  };
}

/** The one tab counter of this page. */
export const tab = tabCount();
