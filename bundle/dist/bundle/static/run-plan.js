// @ts-check
import { commandLine, withCommands } from './copy.js';
import { h } from './dom.js';
import { when } from './fmt.js';
import { panel } from './run-sections.js';

/** @param {string} cls @param {string} title @param {any[]} items @param {number} [total] all items (live: the page document holds the first ones) */
function group(cls, title, items, total = items.length) {
  if (items.length === 0) return null;
  return h(
    'div',
    { class: cls },
    h('h3', null, title, h('span', { class: 'count' }, String(total))),
    h(
      'ul',
      null,
      // triage: a `command` inside a reason (take over a lock, approve) gets a copy button.
      items.map((i) =>
        h('li', null, h('code', null, i.id), h('span', { class: 'why' }, withCommands(i.reason))),
      ),
      total > items.length
        ? h('li', { class: 'more-items' }, `… and ${total - items.length} more (ckpt resume lists them all)`)
        : null,
    ),
  );
}

/** A group, collapsed with its count when long (live). @param {string} cls @param {string} title @param {string} label @param {any[]} items @param {number} [total] */
function longGroup(cls, title, label, items, total = items.length) {
  return total > 8
    ? h('details', { class: cls }, h('summary', null, `${label} (show)`), group(cls, title, items, total))
    : group(cls, title, items, total);
}

/** The resume plan: what resuming will skip, run next, what is blocked and why, what needs a person. @param {any} run */
export function planSection(run) {
  const p = run.resume;
  const n = run.planTotals ?? {};
  const skip = longGroup('group-skip', 'Skip', `Skip ${n.skip ?? p.skip.length} done`, p.skip, n.skip);
  return panel(
    'resume',
    'Resume plan',
    undefined,
    h(
      'div',
      { class: 'plan' },
      h('p', { class: 'summary' }, p.summary),
      longGroup('group-next', 'Run next', `Run next ${n.runNext ?? p.runNext.length}`, p.runNext, n.runNext),
      longGroup('group-blocked', 'Blocked', `Blocked ${n.blocked ?? p.blocked.length}`, p.blocked, n.blocked),
      longGroup(
        'group-person',
        'Needs a person',
        `Needs a person ${n.needsPerson ?? p.needsPerson.length}`,
        p.needsPerson,
        n.needsPerson,
      ),
      skip,
      p.command ? [h('h3', null, 'Command'), commandLine(p.command.shell, 'block')] : null,
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
