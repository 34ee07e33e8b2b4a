// @ts-check
// Every element is built with the DOM API and every value enters as text: nothing from a checkpoint is ever
// parsed as HTML (the client has no innerHTML), so escaping cannot be forgotten.

/**
 * Creates an element. Props: `class`, `text`, `dataset`, `on<event>`, else attributes. Children: nodes or text.
 * @param {string} tag
 * @param {Record<string, any> | null} [props]
 * @param {...any} children
 * @returns {HTMLElement}
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') el.className = String(v);
      else if (k === 'text') el.textContent = String(v);
      else if (k === 'dataset') Object.assign(el.dataset, v);
      else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

/** @param {Node} el @param {any[]} children */
function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false || c === '') continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** @param {string} sel @param {ParentNode} [root] @returns {HTMLElement | null} */
export const $ = (sel, root = document) => root.querySelector(sel);

/** Replaces an element's children. @param {Element} el @param {...any} children */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/**
 * A status pill in the colour of its tone; an active one's dot blinks (`blinks`: the one class a list's scroll
 * restyles to hold it still, app.css). @param {string} status @param {string} tone
 */
export function pill(status, tone) {
  return h(
    'span',
    { class: `pill tone-${tone}${tone === 'active' ? ' blinks' : ''}`, title: status },
    status,
  );
}

/**
 * A progress bar stacked by status, each segment coloured by the tone of that status.
 * @param {Record<string, number>} counts @param {Record<string, string>} tones @param {number} total
 * @param {string} [cls] @param {number} [done]
 */
export function stackedBar(counts, tones, total, cls = '', done) {
  const bar = h('div', { class: `bar ${cls}`, role: 'img' });
  // Some dialects count progress in steps other than their units (phases): then show done against the total.
  const sum = Object.values(counts).reduce((a, b) => a + b, 0);
  if (sum !== total) {
    counts = { done: done ?? 0, 'not done': Math.max(0, total - (done ?? 0)) };
    tones = { done: 'ok', 'not done': 'neutral' };
  }
  const order = ['ok', 'active', 'warning', 'error', 'neutral'];
  const entries = Object.entries(counts).sort(
    (a, b) => order.indexOf(tones[a[0]] ?? 'neutral') - order.indexOf(tones[b[0]] ?? 'neutral'),
  );
  const label = [];
  for (const [status, n] of entries) {
    if (!n || !total) continue;
    const seg = h('span', { class: `tone-${tones[status] ?? 'neutral'}`, title: `${status}: ${n}` });
    seg.style.width = `${(100 * n) / total}%`;
    bar.appendChild(seg);
    label.push(`${status} ${n}`);
  }
  bar.setAttribute('aria-label', label.join(', ') || 'nothing to do');
  return bar;
}

/** URL of a run page. @param {string} dialect @param {string} id */
/**
 * A text as one URI component. encodeURIComponent throws on a lone surrogate (a JSON file can hold "\ud800" in an
 * id); it becomes U+FFFD here, as the server reads it back (a run is also found by that spelling of its id).
 * @param {string} s
 */
export const uriPart = (s) => encodeURIComponent(String(s).replace(/\p{Cs}/gu, '\uFFFD'));

export const runHref = (dialect, id) => `/runs/${uriPart(dialect)}/${uriPart(id)}`;

/** URL of a source file's raw view at a line. @param {string} path @param {number} [line] @param {string} [run] */
export function rawHref(path, line, run) {
  const q = new URLSearchParams({ path });
  if (run) q.set('run', run);
  return `/raw?${q}${line ? `#L${line}` : ''}`;
}
