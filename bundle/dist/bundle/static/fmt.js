// @ts-check
/** How long ago an ISO time was. @param {string | undefined} iso @param {number} [now] */
export function ago(iso, now = Date.now()) {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.round((now - t) / 1000);
  if (s < 0) return 'just now';
  if (s < 45) return `${s}s ago`;
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  if (s < 86400 * 45) return `${Math.floor(s / 86400)}d ago`;
  return iso.slice(0, 10);
}

/** A duration in its two largest units. @param {number | undefined} ms */
export function duration(ms) {
  if (ms === undefined || ms === null || !Number.isFinite(ms)) return '';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** A compact UTC time for tables. @param {string | undefined} iso */
export function when(iso) {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return new Date(t)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$|Z$/, 'Z');
}

/** @param {number} n @param {string} word */
export const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Keeps "x ago" labels current without re-rendering: elements with data-ago hold the ISO time. */
export function tickAgo() {
  for (const el of document.querySelectorAll('[data-ago]')) {
    const v = /** @type {HTMLElement} */ (el).dataset.ago;
    el.textContent = ago(v);
  }
}
