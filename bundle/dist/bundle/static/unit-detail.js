// @ts-check
import { h, pill, rawHref, uriPart } from './dom.js';
import { duration, plural, when } from './fmt.js';

/**
 * The detail of one unit: dependencies (links that select them), times, note, evidence, inputs, artifacts,
 * checks, every attempt with its start, end, duration, retry reason and source files, and the unit's history
 * (a HistoryList element the caller keeps across refreshes).
 * @param {any} u @param {string} runRef @param {HTMLElement} [history]
 */
export function unitDetail(u, runRef, history) {
  const link = (/** @type {string} */ id) => h('a', { href: `#unit-${uriPart(id)}`, class: 'mono' }, id);
  const kv = [];
  /** @param {string} k @param {any} v */
  const add = (k, v) => {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) return;
    kv.push(h('dt', null, k), h('dd', null, v));
  };
  add('stage', u.stage);
  add('agent', u.agent);
  add(
    'depends on',
    u.dependsOn?.length ? h('span', { class: 'list-inline' }, u.dependsOn.map(link)) : undefined,
  );
  add('started', when(u.startedAt));
  add('finished', when(u.finishedAt));
  add('updated', when(u.updatedAt));
  add('duration', duration(u.durationMs));
  add('note', u.note);
  add('evidence', u.evidence);
  add('next', u.next);
  add(
    'inputs',
    u.inputs?.length
      ? h(
          'span',
          { class: 'list-inline' },
          u.inputs.map((/** @type {string} */ x) => h('code', null, x)),
        )
      : undefined,
  );
  add(
    'artifacts',
    u.artifacts?.length
      ? h(
          'span',
          { class: 'list-inline' },
          u.artifacts.map((/** @type {string} */ x) => h('code', null, x)),
        )
      : undefined,
  );
  add(
    'checks',
    u.checks?.length
      ? h(
          'span',
          { class: 'list-inline' },
          u.checks.map((/** @type {any} */ c) =>
            h('span', { class: c.done ? 'valid' : 'faint' }, `${c.done ? '✓' : '○'} ${c.id}`),
          ),
        )
      : undefined,
  );
  const attempts = u.attempts.length
    ? h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'data' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['#', 'Status', 'Agent', 'Started', 'Ended', 'Took', 'Retry', 'Evidence / next', 'Files'].map(
                (x) => h('th', null, x),
              ),
            ),
          ),
          h(
            'tbody',
            null,
            u.attempts.map((/** @type {any} */ a) =>
              h(
                'tr',
                null,
                h('td', null, String(a.attempt)),
                h('td', null, pill(a.status, a.tone)),
                h('td', null, a.agent ?? ''),
                h('td', { class: 'mono' }, when(a.startedAt)),
                h('td', { class: 'mono' }, when(a.endedAt)),
                h('td', null, duration(a.durationMs)),
                h(
                  'td',
                  null,
                  a.retryOf !== undefined ? `of #${a.retryOf}${a.reason ? `: ${a.reason}` : ''}` : '',
                ),
                h(
                  'td',
                  null,
                  a.evidence ?? '',
                  a.next ? h('div', { class: 'muted' }, `next: ${a.next}`) : null,
                ),
                h(
                  'td',
                  null,
                  (a.sources ?? []).map((/** @type {string} */ s) =>
                    h(
                      'div',
                      null,
                      h(
                        'a',
                        { href: rawHref(s, undefined, runRef), class: 'mono', title: s },
                        s.split('/').pop(),
                      ),
                    ),
                  ),
                ),
              ),
            ),
          ),
        ),
      )
    : null;
  return [
    h(
      'h3',
      null,
      u.id,
      pill(u.status, u.tone),
      h('a', { href: `#unit-${uriPart(u.id)}`, class: 'faint', title: 'Link to this unit' }, '#'),
      u.attempts.length > 1 ? h('span', { class: 'badge' }, plural(u.attempts.length, 'attempt')) : null,
    ),
    kv.length ? h('dl', { class: 'kv' }, kv) : null,
    attempts,
    history ? h('div', { class: 'unit-history' }, h('h4', null, 'History'), history) : null,
  ];
}
