// @ts-check
import { getJson } from './api.js';
import { $, h, pill, replace, runHref, stackedBar } from './dom.js';
import { ago, plural } from './fmt.js';

const DIALECTS = ['team', 'resumable', 'ulpi', 'agent-context'];

/** Whether a run needs a person: core's attention level is action or blocked (`needsPerson`). @param {any} r */
const calls = (r) => r.attention.level === 'action' || r.attention.level === 'blocked';
/** The run's staleness reason, when core found it stale (`run/stale`). @param {any} r */
const staleReason = (r) => r.attention.reasons.find((/** @type {any} */ x) => x.code === 'run/stale');

/** @param {any} r */
function attentionBadges(r) {
  const stale = staleReason(r);
  const title = r.attention.reasons.map((/** @type {any} */ x) => `${x.code}: ${x.message}`).join('\n');
  return [
    calls(r)
      ? h(
          'span',
          { class: `badge attention level-${r.attention.level}`, title },
          r.attention.level === 'blocked' ? 'blocked' : 'needs attention',
        )
      : null,
    stale ? h('span', { class: 'badge stale', title: stale.message }, 'stale') : null,
  ];
}

/** @param {any} p */
function problemsOf(p) {
  const parts = [];
  if (p.errors) parts.push(h('span', { class: 'sev-error' }, plural(p.errors, 'error')));
  if (p.warnings) parts.push(h('span', { class: 'sev-warning' }, plural(p.warnings, 'warning')));
  if (p.infos) parts.push(h('span', { class: 'sev-info' }, `${p.infos} info`));
  if (parts.length === 0) return h('span', { class: 'faint' }, 'no problems');
  return h(
    'span',
    null,
    parts.flatMap((x, i) => (i ? [', ', x] : [x])),
  );
}

/** @param {any} r */
function row(r) {
  const total = r.progress.total;
  const reason = r.attention.reasons[0];
  return h(
    'a',
    {
      class: `run-row${calls(r) ? ' calls' : ''}`,
      href: runHref(r.dialect, r.id),
      dataset: { key: `${r.dialect}/${r.id}`, level: r.attention.level },
    },
    h('span', { class: 'c-status' }, pill(r.status, r.tone)),
    h(
      'span',
      { class: 'c-id' },
      h('span', { class: 'run-id' }, r.id),
      // Two lines at most; a title of thousands of characters is cut to its start (its whole text is the tooltip).
      h(
        'span',
        { class: 'run-title', title: r.title },
        r.title === r.id ? r.root : r.title.length > 300 ? `${r.title.slice(0, 300)}…` : r.title,
      ),
    ),
    h('span', { class: 'c-dialect' }, h('span', { class: 'badge dialect' }, r.dialect)),
    h(
      'span',
      { class: 'cell-progress' },
      stackedBar(r.counts, r.tones, total, '', r.progress.done),
      h(
        'span',
        { class: 'nums' },
        [
          `${r.progress.done}/${total} done`,
          ...Object.entries(r.counts)
            .filter(([s]) => s !== 'done' && s !== 'completed')
            .map(([s, n]) => `${n} ${s}`),
        ].map((x, i) => h('span', { class: 'num' }, i ? `· ${x}` : x)),
      ),
    ),
    h(
      'span',
      { class: 'problems' },
      h('span', { class: 'flags' }, attentionBadges(r), problemsOf(r.problems)),
      // The one-line reason: core's first (most urgent) reason, in full.
      reason ? h('span', { class: `why reason-${reason.level}`, title: reason.hint }, reason.message) : null,
    ),
    h(
      'span',
      {
        class: 'updated',
        title: r.updatedAt ?? r.createdAt ?? '',
        dataset: { ago: r.updatedAt ?? r.createdAt ?? '' },
      },
      ago(r.updatedAt ?? r.createdAt),
    ),
  );
}

/**
 * The runs page: every run of every dialect in core's triage order (the server sends them so: runs that need a
 * person first, then running ones, then the rest, newest first in each), with filters kept in the URL.
 * @param {HTMLElement} main
 */
export function runsPage(main) {
  const params = new URLSearchParams(location.search);
  const filter = {
    dialect: params.get('dialect') ?? '',
    status: params.get('status') ?? '',
    q: params.get('q') ?? '',
    attention: params.get('attention') === '1',
  };
  /** @type {any[]} */
  let runs = [];
  /** @type {any[]} */
  let shown = [];
  let sel = -1;

  const tally = h('span', { class: 'tally' });
  const search = /** @type {HTMLInputElement} */ (
    h('input', {
      id: 'search',
      class: 'search',
      type: 'search',
      placeholder: 'Search run id or title   /',
      'aria-label': 'Search runs by id or title',
      value: filter.q,
      autocomplete: 'off',
    })
  );
  const seg = h('div', { class: 'seg', role: 'group', 'aria-label': 'Dialect' });
  const status = /** @type {HTMLSelectElement} */ (h('select', { class: 'select', 'aria-label': 'Status' }));
  const attention = /** @type {HTMLInputElement} */ (
    h('input', { type: 'checkbox', checked: filter.attention })
  );
  const list = h('div', { class: 'runs', role: 'list', 'aria-label': 'Runs' });

  const sync = () => {
    const q = new URLSearchParams();
    if (filter.dialect) q.set('dialect', filter.dialect);
    if (filter.status) q.set('status', filter.status);
    if (filter.q) q.set('q', filter.q);
    if (filter.attention) q.set('attention', '1');
    history.replaceState(null, '', q.size ? `/?${q}` : '/');
  };
  const renderSeg = () => {
    replace(
      seg,
      ['', ...DIALECTS].map((d) =>
        h('button', {
          type: 'button',
          'aria-pressed': String(filter.dialect === d),
          onclick: () => {
            filter.dialect = d;
            sync();
            renderSeg();
            renderList();
          },
          text: d ? `${d} ${runs.filter((r) => r.dialect === d).length}` : `all ${runs.length}`,
        }),
      ),
    );
  };
  const renderStatus = () => {
    const statuses = [...new Set(runs.map((r) => r.status))].sort();
    if (filter.status && !statuses.includes(filter.status)) statuses.push(filter.status);
    replace(
      status,
      h('option', { value: '' }, 'any status'),
      statuses.map((s) => h('option', { value: s, selected: s === filter.status }, s)),
    );
  };
  const renderList = () => {
    const q = filter.q.trim().toLowerCase();
    shown = runs.filter(
      (r) =>
        (!filter.dialect || r.dialect === filter.dialect) &&
        (!filter.status || r.status === filter.status) &&
        (!filter.attention || calls(r)) &&
        (!q || r.id.toLowerCase().includes(q) || r.title.toLowerCase().includes(q)),
    );
    const head = h(
      'div',
      { class: 'runs-head', 'aria-hidden': 'true' },
      h('span', null, 'Status'),
      h('span', null, 'Run'),
      h('span', null, 'Dialect'),
      h('span', null, 'Progress'),
      h('span', null, 'Attention'),
      h('span', { class: 'updated' }, 'Updated'),
    );
    const rows = shown.map(row);
    replace(
      list,
      head,
      rows.length
        ? rows
        : h('p', {
            class: 'empty',
            text: runs.length
              ? 'No run matches the filters.'
              : 'No runs found. ckpt looks for .team/runs, .ulpi/runs, .agent-context/ and resumable run roots (state.env).',
          }),
    );
    const need = runs.filter(calls).length;
    const stale = runs.filter(staleReason).length;
    tally.textContent = `${plural(runs.length, 'run')}${need ? ` · ${need} need${need === 1 ? 's' : ''} attention` : ''}${stale ? ` · ${stale} stale` : ''}${shown.length !== runs.length ? ` · ${shown.length} shown` : ''}`;
    if (sel >= shown.length) sel = shown.length - 1;
    mark();
  };
  const mark = () => {
    list.querySelectorAll('.run-row.sel').forEach((e) => e.classList.remove('sel'));
    const el = list.querySelectorAll('.run-row')[sel];
    if (el) {
      el.classList.add('sel');
      el.scrollIntoView({ block: 'nearest' });
    }
  };

  search.addEventListener('input', () => {
    filter.q = search.value;
    sync();
    renderList();
  });
  status.addEventListener('change', () => {
    filter.status = status.value;
    sync();
    renderList();
  });
  attention.addEventListener('change', () => {
    filter.attention = attention.checked;
    sync();
    renderList();
  });

  replace(
    main,
    h('div', { class: 'page-head' }, h('h1', null, 'Runs'), tally),
    h(
      'div',
      { class: 'toolbar' },
      search,
      seg,
      status,
      h('label', { class: 'check' }, attention, 'needs attention'),
    ),
    list,
  );

  const refresh = async () => {
    const { data, changed } = await getJson('/api/summaries');
    if (!changed && runs.length) return;
    const key = shown[sel] ? `${shown[sel].dialect}/${shown[sel].id}` : '';
    runs = data.runs;
    renderSeg();
    renderStatus();
    renderList();
    if (key) {
      sel = shown.findIndex((r) => `${r.dialect}/${r.id}` === key);
      mark();
    }
    document.body.dataset.rendered = String(Number(document.body.dataset.rendered ?? 0) + 1);
  };

  return {
    refresh,
    keys: {
      /** @param {number} d */
      move: (d) => {
        sel = Math.max(0, Math.min(shown.length - 1, sel + d));
        mark();
      },
      open: () => {
        const r = shown[Math.max(0, sel)];
        if (r) location.href = runHref(r.dialect, r.id);
      },
      clear: () => {
        if (filter.q) {
          filter.q = search.value = '';
          sync();
          renderList();
        }
      },
    },
    focusSearch: () => $('#search')?.focus(),
  };
}
