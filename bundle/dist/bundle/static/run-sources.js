// @ts-check
import { getText } from './api.js';
import { h, rawHref, replace, uriPart } from './dom.js';
import { panel } from './run-sections.js';

const LINE_CAP = 2000;

/** Renders a file's text as numbered lines (the raw page has the whole file, virtualised). @param {string} text @param {string} path @param {string} runRef */
export function codeBlock(text, path, runRef) {
  const lines = text.split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  const pre = h('pre', { class: 'code' });
  lines.slice(0, LINE_CAP).forEach((l, i) => {
    pre.appendChild(
      h(
        'div',
        { class: 'ln' },
        h('a', { href: rawHref(path, i + 1, runRef) }, String(i + 1)),
        h('span', null, l),
      ),
    );
  });
  if (lines.length > LINE_CAP)
    pre.appendChild(
      h(
        'div',
        { class: 'ln' },
        h('a', { href: rawHref(path, undefined, runRef) }, '…'),
        h('span', null, `${lines.length - LINE_CAP} more lines: open the file`),
      ),
    );
  return pre;
}

/**
 * Every source file, collapsible; opening one fetches its raw text (kept open across live refreshes).
 * The page document carries the first files and `sourcesTotal`; `state.loadAll` fetches the others when asked.
 * @param {any} run @param {string} runRef
 * @param {{ open: Set<string>, limit: number, all?: any[], loadAll?: () => void }} state @param {() => void} rerender
 */
export function sourcesSection(run, runRef, state, rerender) {
  const sources = state.all ?? run.sources;
  const total = state.all ? state.all.length : (run.sourcesTotal ?? run.sources.length);
  const list = sources.slice(0, state.limit);
  const wrap = h('div', { class: 'sources' });
  for (const s of list) {
    const body = h('div');
    const d = /** @type {HTMLDetailsElement} */ (
      h(
        'details',
        { open: state.open.has(s.path) },
        h(
          'summary',
          null,
          h(
            'span',
            { title: s.path },
            s.path.startsWith(`${run.root}/`) ? s.path.slice(run.root.length + 1) : s.path,
          ),
          h('span', { class: 'kind' }, s.kind ?? 'file'),
          h('a', { href: rawHref(s.path, undefined, runRef), title: 'Open the file' }, '↗'),
        ),
        body,
      )
    );
    const load = () => {
      replace(body, h('p', { class: 'none' }, 'Loading…'));
      getText(`/api/raw?path=${uriPart(s.path)}`).then(
        (t) => replace(body, codeBlock(t, s.path, runRef)),
        (e) => replace(body, h('p', { class: 'none' }, `Cannot show this file: ${e.message}`)),
      );
    };
    d.addEventListener('toggle', () => {
      if (d.open) {
        state.open.add(s.path);
        load();
      } else state.open.delete(s.path);
    });
    if (d.open) load();
    wrap.appendChild(d);
  }
  const more =
    total > list.length
      ? h(
          'button',
          {
            class: 'more',
            type: 'button',
            onclick: () => {
              state.limit += 200;
              if (state.limit > sources.length && total > sources.length && state.loadAll) state.loadAll();
              else rerender();
            },
          },
          `Show ${Math.min(200, total - list.length)} more of ${total - list.length}`,
        )
      : null;
  return panel('sources', 'Source files', total, total ? wrap : h('p', { class: 'none' }, 'No files.'), more);
}
