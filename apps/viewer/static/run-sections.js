// @ts-check
import { getText } from './api.js';
import { h, rawHref, replace } from './dom.js';
import { plural, when } from './fmt.js';

/** @param {string} id @param {string} title @param {any} count @param {...any} body */
export function panel(id, title, count, ...body) {
  return h(
    'section',
    { class: 'panel section-anchor', id, 'aria-labelledby': `${id}-title` },
    h(
      'header',
      null,
      h(
        'h2',
        { id: `${id}-title` },
        title,
        count !== undefined ? h('span', { class: 'count' }, ` ${count}`) : null,
      ),
    ),
    ...body,
  );
}

/** @param {any} run */
export function phasesSection(run) {
  if (run.phases.length === 0) return null;
  return panel(
    'phases',
    'Phases',
    run.phases.length,
    h(
      'div',
      { class: 'phases' },
      run.phases.map((/** @type {any} */ p, /** @type {number} */ i) => [
        i ? h('span', { class: 'arrow', 'aria-hidden': 'true' }, '›') : null,
        h(
          'span',
          {
            class: `phase tone-${p.tone}${p.current ? ' current' : ''}`,
            title: [
              p.status,
              p.note,
              p.startedAt && `started ${when(p.startedAt)}`,
              p.finishedAt && `finished ${when(p.finishedAt)}`,
            ]
              .filter(Boolean)
              .join(' · '),
            'aria-current': p.current ? 'step' : null,
          },
          h('span', { class: `dot tone-${p.tone}` }),
          p.id,
          h('span', { class: 'faint' }, p.status),
        ),
      ]),
    ),
  );
}

const ICON = { error: '✕', warning: '!', info: 'i' };
const PAGE = 100;

/** @param {any} run @param {string} runRef @param {{ all: boolean }} state @param {() => void} rerender */
export function findingsSection(run, runRef, state, rerender) {
  const fs = run.findings;
  const shown = state.all ? fs : fs.slice(0, PAGE);
  const body = fs.length
    ? h(
        'ol',
        { class: 'findings' },
        shown.map((/** @type {any} */ f, /** @type {number} */ i) =>
          h(
            'li',
            { class: 'finding', id: `finding-${i + 1}` },
            h(
              'span',
              { class: `icon sev-${f.severity}`, title: f.severity, 'aria-label': f.severity },
              ICON[/** @type {'error'} */ (f.severity)] ?? '·',
            ),
            h('span', { class: 'msg' }, f.message),
            h(
              'span',
              { class: 'meta' },
              h(
                'a',
                { href: rawHref(f.file, f.line, runRef), class: 'mono', title: 'Show the file at this line' },
                `${f.file}:${f.line}:${f.column}`,
              ),
              h('code', null, f.code),
              f.pointer ? h('code', { title: 'JSON Pointer' }, f.pointer) : null,
              h('a', { href: `#finding-${i + 1}`, class: 'faint', title: 'Link to this finding' }, '#'),
            ),
            f.hint ? h('span', { class: 'hint' }, f.hint) : null,
          ),
        ),
      )
    : h(
        'p',
        { class: 'none' },
        'No findings: every file parsed, matched its schema and passed the dialect rules.',
      );
  const more =
    fs.length > shown.length
      ? h(
          'button',
          {
            class: 'more',
            type: 'button',
            onclick: () => {
              state.all = true;
              rerender();
            },
          },
          `Show all ${fs.length} findings`,
        )
      : null;
  const errs = fs.filter((/** @type {any} */ f) => f.severity === 'error').length;
  return panel(
    'findings',
    'Findings',
    fs.length ? `${fs.length}${errs ? ` · ${plural(errs, 'error')}` : ''}` : 0,
    body,
    more,
  );
}

/** @param {any} run @param {string} runRef */
export function approvalsSection(run, runRef) {
  if (run.approvals.length === 0) return null;
  return panel(
    'approvals',
    'Approvals',
    run.approvals.length,
    h(
      'div',
      { class: 'table-wrap body' },
      h(
        'table',
        { class: 'data' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['State', 'Stage', 'Artifact', 'By', 'Approved', 'Note'].map((x) => h('th', null, x)),
          ),
        ),
        h(
          'tbody',
          null,
          run.approvals.map((/** @type {any} */ a) =>
            h(
              'tr',
              null,
              h(
                'td',
                null,
                h(
                  'span',
                  {
                    class: a.state === 'valid' ? 'valid' : 'stale',
                    title:
                      a.state === 'valid'
                        ? 'the artifact still has the approved sha256'
                        : 'this approval no longer counts',
                  },
                  a.state === 'valid' ? '✓ valid' : `⚠ ${a.state}`,
                ),
              ),
              h('td', null, a.stage),
              h('td', null, h('code', null, a.artifact)),
              h('td', null, a.by),
              h(
                'td',
                { class: 'mono' },
                h('a', { href: rawHref(a.source, undefined, runRef), title: a.source }, when(a.approvedAt)),
              ),
              h('td', null, a.note ?? ''),
            ),
          ),
        ),
      ),
    ),
  );
}

/** @param {string} cls @param {string} title @param {any[]} items */
function group(cls, title, items) {
  if (items.length === 0) return null;
  return h(
    'div',
    { class: cls },
    h('h3', null, title, h('span', { class: 'count' }, String(items.length))),
    h(
      'ul',
      null,
      items.map((i) => h('li', null, h('code', null, i.id), h('span', { class: 'why' }, i.reason))),
    ),
  );
}

/** The resume plan: what resuming will skip, run next, what is blocked and why, what needs a person. @param {any} run */
export function planSection(run) {
  const p = run.resume;
  const skip =
    p.skip.length > 8
      ? h(
          'details',
          { class: 'group-skip' },
          h('summary', null, `Skip ${p.skip.length} done (show)`),
          group('group-skip', 'Skip', p.skip),
        )
      : group('group-skip', 'Skip', p.skip);
  return panel(
    'resume',
    'Resume plan',
    undefined,
    h(
      'div',
      { class: 'plan' },
      h('p', { class: 'summary' }, p.summary),
      group('group-next', 'Run next', p.runNext),
      group('group-blocked', 'Blocked', p.blocked),
      group('group-person', 'Needs a person', p.needsPerson),
      skip,
      p.command ? [h('h3', null, 'Command'), h('pre', { class: 'cmd' }, p.command.shell)] : null,
      p.notes.length
        ? h(
            'div',
            { class: 'notes' },
            p.notes.map((/** @type {string} */ n) => h('p', null, n)),
          )
        : null,
    ),
  );
}

/** @param {any} run */
export function detailsSection(run) {
  const rows = [
    ...run.details.map((/** @type {any} */ d) => [d.label, d.value]),
    ['root', run.root],
    ['created', when(run.createdAt)],
    ['updated', when(run.updatedAt)],
    ['finished', when(run.finishedAt)],
  ].filter(([, v]) => v);
  return panel(
    'details',
    'Details',
    undefined,
    h(
      'div',
      { class: 'body' },
      h(
        'dl',
        { class: 'kv' },
        rows.map(([k, v]) => [h('dt', null, k), h('dd', null, v)]),
      ),
    ),
  );
}

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
 * @param {any} run @param {string} runRef @param {{ open: Set<string>, limit: number }} state @param {() => void} rerender
 */
export function sourcesSection(run, runRef, state, rerender) {
  const list = run.sources.slice(0, state.limit);
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
      getText(`/api/raw?path=${encodeURIComponent(s.path)}`).then(
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
    run.sources.length > list.length
      ? h(
          'button',
          {
            class: 'more',
            type: 'button',
            onclick: () => {
              state.limit += 200;
              rerender();
            },
          },
          `Show ${Math.min(200, run.sources.length - list.length)} more of ${run.sources.length - list.length}`,
        )
      : null;
  return panel(
    'sources',
    'Source files',
    run.sources.length,
    run.sources.length ? wrap : h('p', { class: 'none' }, 'No files.'),
    more,
  );
}
