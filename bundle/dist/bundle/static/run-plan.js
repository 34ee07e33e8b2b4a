// @ts-check
import { h } from './dom.js';
import { when } from './fmt.js';
import { panel } from './run-sections.js';

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
