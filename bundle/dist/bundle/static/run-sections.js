// @ts-check
import { h, rawHref } from './dom.js';
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
  // live: the page document holds the first findings only; `findingsTotal` counts them all.
  const total = run.findingsTotal ?? fs.length;
  const shown = state.all ? fs : fs.slice(0, PAGE);
  const body = fs.length
    ? h(
        'ol',
        { class: 'findings' },
        shown.map((/** @type {any} */ f, /** @type {number} */ i) =>
          h(
            'li',
            // triage: the deep-linked finding stays highlighted when a live refresh re-renders the list.
            { class: `finding${location.hash === `#finding-${i + 1}` ? ' hl' : ''}`, id: `finding-${i + 1}` },
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
    total > shown.length
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
          `Show all ${total} findings`,
        )
      : null;
  const errs = fs.filter((/** @type {any} */ f) => f.severity === 'error').length;
  return panel(
    'findings',
    'Findings',
    total
      ? `${total}${errs ? ` · ${plural(errs, 'error')}${total > fs.length ? ' in the first' : ''}` : ''}`
      : 0,
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
