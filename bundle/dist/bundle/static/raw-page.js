// @ts-check
import { ApiError } from './api.js';
import { h, rawHref, replace, runHref, uriPart } from './dom.js';
import { VirtualList } from './vlist.js';

/**
 * The file's text and whether its secret-looking values were masked (`x-ckpt-secrets`: none, redacted, revealed).
 * @param {string} path @param {boolean} reveal
 * @returns {Promise<{ text: string, secrets: string }>}
 */
async function getRaw(path, reveal) {
  const res = await fetch(`/api/raw?path=${uriPart(path)}${reveal ? '&reveal=1' : ''}`, {
    cache: 'no-store',
  });
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    throw new ApiError(res.status, body.error ?? res.statusText);
  }
  return { text: await res.text(), secrets: res.headers.get('x-ckpt-secrets') ?? 'none' };
}

/**
 * A source file with line numbers, virtualised (a 100,000-line JSONL log opens at once); `#L<n>` marks and
 * scrolls to a line, which is where a finding links.
 * @param {HTMLElement} main
 */
export function rawPage(main) {
  const path = document.body.dataset.path ?? '';
  const params = new URLSearchParams(location.search);
  const run = params.get('run') ?? '';
  const slash = run.indexOf('/');
  const back =
    slash > 0
      ? h('a', { href: runHref(run.slice(0, slash), run.slice(slash + 1)) }, `← ${run.slice(slash + 1)}`)
      : h('a', { href: '/' }, '← All runs');
  const target = () => Number(/^#L(\d+)$/.exec(location.hash)?.[1] ?? 0);
  /** @type {string[]} */
  let lines = [];
  const list = new VirtualList({
    rowHeight: 20,
    label: `Lines of ${path}`,
    className: 'raw-view',
    maxHeight: () => Math.max(300, window.innerHeight - 150),
    render: (line, i) =>
      h(
        'div',
        { class: i + 1 === target() ? 'hit' : '' },
        h('a', { href: `#L${i + 1}`, id: `L${i + 1}` }, String(i + 1)),
        h('span', null, line),
      ),
    onSelect: (_l, i) => history.replaceState(null, '', `${location.pathname}${location.search}#L${i + 1}`),
  });
  const info = h('span', { class: 'muted' });
  // Secret-looking values are masked by default; showing them is an explicit choice, undone by a reload.
  let reveal = false;
  const toggle = /** @type {HTMLButtonElement} */ (
    h('button', { type: 'button', class: 'reveal-secrets', hidden: true }, 'Reveal secrets')
  );
  toggle.addEventListener('click', () => {
    reveal = !reveal;
    void refresh();
  });
  const go = () => {
    const n = target();
    if (n > 0) {
      list.selected = n - 1;
      list.reveal(n - 1);
      list.setItems(lines);
    }
  };
  window.addEventListener('hashchange', go);

  const refresh = async () => {
    let text;
    let secrets;
    try {
      ({ text, secrets } = await getRaw(path, reveal));
    } catch (e) {
      replace(
        main,
        h('div', { class: 'raw-head' }, back),
        h('div', { class: 'error-box' }, `Cannot show "${path}": ${/** @type {Error} */ (e).message}`),
      );
      return;
    }
    const first = lines.length === 0;
    lines = text.split('\n');
    if (lines.length > 1 && lines.at(-1) === '') lines.pop();
    info.textContent = `${lines.length} line${lines.length === 1 ? '' : 's'} · ${text.length} characters${secrets === 'redacted' ? ' · secret-looking values masked' : ''}`;
    toggle.hidden = secrets === 'none';
    toggle.textContent = secrets === 'revealed' ? 'Mask secrets' : 'Reveal secrets';
    toggle.setAttribute('aria-pressed', String(secrets === 'revealed'));
    if (first)
      replace(
        main,
        h(
          'div',
          { class: 'raw-head' },
          back,
          h('h1', null, path),
          info,
          toggle,
          h('a', { href: rawHref(path, undefined, run) }, 'top'),
        ),
        list.el,
      );
    list.setItems(lines);
    if (first) go();
    document.body.dataset.rendered = String(Number(document.body.dataset.rendered ?? 0) + 1);
  };
  return {
    refresh,
    keys: {
      move: (/** @type {number} */ d) =>
        list.select(list.selected < 0 ? target() - 1 + d : list.selected + d),
    },
  };
}
