// @ts-check
import { ApiError, getJson, UnitPager } from './api.js';
import { commandLine } from './copy.js';
import { h, pill, replace, stackedBar, uriPart } from './dom.js';
import { ago, when } from './fmt.js';
import { ganttSection } from './gantt.js';
import { graphSection } from './graph.js';
import { historySection } from './history.js';
import { detailsSection, planSection } from './run-plan.js';
import { approvalsSection, findingsSection, phasesSection } from './run-sections.js';
import { sourcesSection } from './run-sources.js';
import { UnitsSection } from './run-units.js';
import { tab } from './tab-count.js';

/** Titles longer than this show their start until the reader asks for the rest. */
const LONG_TITLE = 300;

/** @param {any} run */
function header(run) {
  // live: the page document carries each status's tone (its units are only the first screen).
  const tones = { ...run.statusTones };
  for (const u of run.units) if (!(u.status in tones)) /** @type {any} */ (tones)[u.status] = u.tone;
  const pct = run.progress.total ? Math.round((100 * run.progress.done) / run.progress.total) : 0;
  const t = (/** @type {string} */ k, /** @type {string | undefined} */ v, ago_ = false) =>
    v
      ? h(
          'span',
          null,
          `${k} `,
          h('b', { title: v, dataset: ago_ ? { ago: v } : undefined }, ago_ ? ago(v) : when(v)),
        )
      : null;
  return h(
    'div',
    { class: 'run-head' },
    h(
      'div',
      { class: 'title-row' },
      // A title of thousands of characters: its start until the reader asks for all of it (laying out one
      // unbroken word of 20,000 characters takes the browser seconds, whatever hides it).
      h('h1', null, run.title.length > LONG_TITLE ? `${run.title.slice(0, LONG_TITLE)}…` : run.title),
      run.title.length > LONG_TITLE
        ? h('button', {
            type: 'button',
            class: 'btn ghost whole-title',
            text: `Show the whole title (${run.title.length} characters)`,
            onclick: (/** @type {Event} */ ev) => {
              const b = /** @type {HTMLElement} */ (ev.currentTarget);
              const h1 = b.parentElement?.querySelector('h1');
              if (h1) h1.textContent = run.title;
              b.remove();
            },
          })
        : null,
      pill(run.status, run.tone),
      h('span', { class: 'badge dialect' }, run.dialect),
      run.attention.level === 'action' || run.attention.level === 'blocked'
        ? h(
            'span',
            { class: `badge attention level-${run.attention.level}` },
            run.attention.level === 'blocked' ? 'blocked' : 'needs attention',
          )
        : null,
      run.attention.reasons.some((/** @type {any} */ x) => x.code === 'run/stale')
        ? h('span', { class: 'badge stale' }, 'stale')
        : null,
    ),
    run.attention.reasons.length
      ? h(
          'section',
          { class: `attention-box level-${run.attention.level}`, 'aria-labelledby': 'why-title' },
          h(
            'h2',
            { id: 'why-title' },
            run.attention.level === 'action' || run.attention.level === 'blocked'
              ? 'Why this run needs you'
              : 'Worth knowing',
          ),
          h(
            'ul',
            { class: 'attention-reasons' },
            // core's reasons, most urgent first: what, what to do, and the command that does it.
            run.attention.reasons.map((/** @type {any} */ x) =>
              h(
                'li',
                { class: `reason level-${x.level}`, dataset: { code: x.code } },
                h('b', { class: `reason-${x.level}` }, x.message),
                h('span', { class: 'reason-hint' }, x.hint),
                x.command ? commandLine(x.command) : null,
              ),
            ),
          ),
        )
      : null,
    h('div', { class: 'id' }, run.id),
    h(
      'div',
      { class: 'progress-row' },
      stackedBar(run.counts, tones, run.progress.total, 'big', run.progress.done),
      h('span', { class: 'pct' }, `${run.progress.done}/${run.progress.total} done · ${pct}%`),
    ),
    h(
      'div',
      { class: 'chips', 'aria-label': 'Units per state' },
      Object.entries(run.counts).map(([s, n]) =>
        h(
          'span',
          { class: `chip tone-${/** @type {any} */ (tones)[s] ?? 'neutral'}` },
          h('span', { class: 'dot' }),
          s,
          ' ',
          h('b', null, String(n)),
        ),
      ),
    ),
    h(
      'div',
      { class: 'times' },
      t('created', run.createdAt),
      t('updated', run.updatedAt, true),
      t('finished', run.finishedAt),
      h('span', null, 'root ', h('b', { class: 'mono' }, run.root)),
    ),
  );
}

/** @param {any} run */
function toc(run) {
  /** @param {string} id @param {string} label @param {number} [n] */
  const item = (id, label, n) =>
    h('a', { href: `#${id}` }, label, n !== undefined ? h('span', { class: 'n' }, String(n)) : null);
  return h(
    'nav',
    { class: 'toc', 'aria-label': 'Sections' },
    run.phases.length ? item('phases', 'Phases', run.phases.length) : null,
    run.units.length ? item('units', 'Units', run.unitsTotal ?? run.units.length) : null,
    item('findings', 'Findings', run.findingsTotal ?? run.findings.length),
    run.approvals.length ? item('approvals', 'Approvals', run.approvals.length) : null,
    item('resume', 'Resume plan'),
    item('history', 'History'),
    item('sources', 'Files', run.sourcesTotal ?? run.sources.length),
    item('details', 'Details'),
  );
}

/**
 * The run page: header, phases, units (virtual list with timeline), findings, approvals, resume plan, details,
 * source files. Live refresh re-renders each part in place, keeping filters, selection, scroll and open files.
 * @param {HTMLElement} main
 */
export function runPage(main) {
  const dialect = document.body.dataset.dialect ?? '';
  const id = document.body.dataset.id ?? '';
  const runRef = `${dialect}/${id}`;
  const base = `/api/runs/${uriPart(dialect)}/${uriPart(id)}`;
  // The page document: slim units and the first source files, so a huge run opens fast; a unit's attempts
  // and evidence, and the rest of the files, are fetched when the reader opens them.
  const url = `${base}/page`;
  /** @type {any} */
  let run;
  const findingsState = { all: false };
  /** @type {{ open: Set<string>, limit: number, all?: any[], loadAll?: () => void }} */
  const sourcesState = { open: new Set(), limit: 50 };
  sourcesState.loadAll = () => {
    getJson(`${base}/sources`).then(({ data }) => {
      sourcesState.all = data.sources;
      render();
    });
  };
  const units = new UnitsSection({
    runRef,
    // triage: by index in run.units (an id of any length cannot be a path segment), as history addresses units.
    unitUrl: (uid) => `${base}/unit?index=${pager.units.indexOf(uid)}`,
    onSelect: (uid) => history.replaceState(null, '', `#unit-${uriPart(uid)}`),
  });
  // live: units beyond the page document's first screen arrive page by page; a change re-fetches only its units.
  const pager = new UnitPager(base, () => {
    if (!run) return;
    units.update(run, pager.units);
    document.body.dataset.units = pager.complete ? 'complete' : 'partial';
  });
  /** live: the findings beyond the page document's first ones, fetched when the reader asks for all. */
  let findingsLoading = false;
  const loadFindings = () => {
    if (findingsLoading) return;
    findingsLoading = true;
    getJson(`${base}/findings?offset=0&limit=5000`, { keep: false })
      .then(({ data }) => {
        run = { ...run, findings: data.findings, findingsTotal: data.total };
        render();
      })
      .finally(() => {
        findingsLoading = false;
      });
  };
  // triage: each slot has a class, so a narrow screen can order them (the resume plan before the files).
  const slots = {
    head: h('div', { class: 'slot-head' }),
    toc: h('div', { class: 'slot-toc' }),
    phases: h('div', { class: 'slot-phases' }),
    findings: h('div', { class: 'slot-findings' }),
    approvals: h('div', { class: 'slot-approvals' }),
    plan: h('div', { class: 'slot-plan' }),
    details: h('div', { class: 'slot-details' }),
    sources: h('div', { class: 'slot-sources' }),
  };
  let built = false;
  // history: the run's shape (dependency graph, timeline) and its history; each fetches its own document.
  const shape = {
    graph: graphSection(base, runRef),
    gantt: ganttSection(base, runRef),
    history: historySection(base, runRef),
  };
  if (location.hash === '#history') shape.history.open();
  // live: the graph and the timeline are built from the whole run (a 10,000-unit timeline is ~3 MB): after the
  // first fetch, a change re-fetches them while they are on screen (or hidden: they may have something to show
  // now), else once they come into view.
  /** @type {Set<any>} */
  const onScreen = new Set();
  /** @type {Set<any>} */
  const stale = new Set();
  let shapesFetched = false;
  const drawn = [shape.graph, shape.gantt];
  const seen = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        const s = drawn.find((x) => x.el === e.target);
        if (!s) continue;
        if (!e.isIntersecting) onScreen.delete(s);
        else {
          onScreen.add(s);
          if (stale.delete(s)) Promise.resolve(s.refresh()).catch(() => {});
        }
      }
    },
    { rootMargin: '400px' },
  );
  for (const s of drawn) seen.observe(s.el);
  /** @param {any} s */
  const refreshShape = (s) => {
    if (shapesFetched && drawn.includes(s) && !s.el.hidden && !onScreen.has(s)) stale.add(s);
    else Promise.resolve(s.refresh()).catch(() => {});
  };

  const render = () => {
    if (findingsState.all && run.findingsTotal > run.findings.length) loadFindings();
    replace(slots.head, header(run));
    replace(slots.toc, toc(run));
    replace(slots.phases, phasesSection(run));
    units.update(run, pager.units);
    for (const s of [shape.graph, shape.gantt, shape.history]) refreshShape(s);
    shapesFetched = true;
    replace(slots.findings, findingsSection(run, runRef, findingsState, render));
    replace(slots.approvals, approvalsSection(run, runRef));
    replace(slots.plan, planSection(run));
    replace(slots.details, detailsSection(run));
    replace(slots.sources, sourcesSection(run, runRef, sourcesState, render));
  };
  const build = () => {
    replace(
      main,
      h(
        'nav',
        { class: 'crumbs', 'aria-label': 'Breadcrumb' },
        h('a', { href: '/' }, 'Runs'),
        h('span', { class: 'sep' }, '/'),
        h('a', { href: `/?dialect=${uriPart(dialect)}` }, dialect),
        h('span', { class: 'sep' }, '/'),
        h('span', { class: 'mono' }, id),
      ),
      slots.head,
      slots.toc,
      h(
        'div',
        { class: 'grid' },
        h(
          'div',
          { class: 'col col-main' },
          slots.phases,
          units.el,
          shape.graph.el,
          shape.gantt.el,
          slots.findings,
          slots.approvals,
          shape.history.el,
          slots.sources,
        ),
        h('div', { class: 'col col-side' }, slots.plan, slots.details),
      ),
    );
    built = true;
  };
  const followHash = () => {
    const m = /^#unit-(.+)$/.exec(location.hash);
    if (m) {
      let uid = m[1] ?? '';
      try {
        uid = decodeURIComponent(uid);
      } catch {
        // a hand-typed hash with a broken %-sequence: look it up as written
      }
      if (units.pick(uid)) units.el.scrollIntoView({ block: 'start' });
    } else if (location.hash.startsWith('#finding-')) {
      const n = Number(location.hash.slice(9));
      if (n > 100 && !findingsState.all) {
        findingsState.all = true;
        render();
      }
      // Highlighted after a reload too (`:target` does not match an element the script adds after loading).
      for (const el of document.querySelectorAll('.finding.hl')) el.classList.remove('hl');
      const el = document.getElementById(location.hash.slice(1));
      el?.classList.add('hl');
      el?.scrollIntoView({ block: 'center' });
    } else if (location.hash.length > 1) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  };
  window.addEventListener('hashchange', followHash);

  /** @param {any} [change] the live change that asked for this refresh (its deltas name runs and units) */
  const refresh = async (change) => {
    let res;
    try {
      res = await getJson(url);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        built = false;
        run = undefined;
        replace(
          main,
          h(
            'div',
            { class: 'error-box' },
            `No ${dialect} run "${id}" in this project (yet). This page updates when it appears.`,
          ),
          h('p', null, h('a', { href: '/' }, '← All runs')),
        );
        return;
      }
      throw e;
    }
    if (!res.changed && built) return;
    const first = !built;
    const delta = change?.deltas?.find((/** @type {any} */ d) => d.key === runRef);
    // run.units stays the page document's first units; every unit held is the pager's (a table, not objects).
    run = { ...res.data.run };
    pager.take(run, delta);
    document.body.dataset.units = pager.complete ? 'complete' : 'partial';
    // Files beyond the page's first ones, once fetched, are re-fetched (or confirmed by a 304) on a refresh.
    if (sourcesState.all) sourcesState.loadAll?.();
    tab.setTitle(`${run.title} · ${run.status} · ckpt`);
    if (!built) build();
    render();
    if (first) followHash();
    document.body.dataset.rendered = String(Number(document.body.dataset.rendered ?? 0) + 1);
  };

  return {
    refresh,
    // live: changes to other runs do not refresh this page.
    live: { wants: (/** @type {any} */ d) => d.key === runRef },
    keys: {
      /** @param {number} d */
      move: (d) => units.move(d),
      open: () => units.detail.scrollIntoView({ block: 'nearest' }),
      clear: () => {
        units.search.value = '';
        units.query = '';
        units.apply();
      },
    },
  };
}
