import { doc, F, T0 } from './common.mjs';

export const itemsValidation = [
  // ── item / resolve ──────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'item-object',
    description: 'an object gets a stable id and at',
    args: ['item', F, '--json', '{"kind":"decision","severity":"blocker","detail":"PCI"}'],
    files: { [F]: doc() },
  },
  {
    name: 'item-own-id-and-at',
    description: 'a caller-supplied id and at are kept',
    args: ['item', F, '--json', '{"id":"q","at":"2020-01-01T00:00:00Z","kind":"x"}'],
    files: { [F]: doc() },
  },
  {
    name: 'item-numeric-at',
    description: 'a numeric at is kept as given',
    args: ['item', F, '--json', '{"kind":"x","at":17}'],
    files: { [F]: doc() },
  },
  {
    name: 'item-any-values',
    description: 'any JSON value is appended as given',
    args: ['item', F, '--json', '["text",42,null,[1,[2]],true,{"id":"o"}]'],
    files: { [F]: doc() },
  },
  {
    name: 'item-scalar',
    description: 'a scalar --json',
    args: ['item', F, '--json', '"just text"'],
    files: { [F]: doc() },
  },
  {
    name: 'item-null',
    description: '--json null appends null and prints nothing',
    args: ['item', F, '--json', 'null'],
    files: { [F]: doc() },
  },
  {
    name: 'item-upsert',
    description: 're-reporting an item keeps its first at',
    args: ['item', F, '--json', '{"id":"q","kind":"y"}'],
    files: { [F]: doc({ openItems: [{ at: T0, id: 'q', kind: 'x' }, 'note'] }) },
  },
  { name: 'item-missing-json', description: 'item without --json', args: ['item', F], files: { [F]: doc() } },
  {
    name: 'item-bad-json',
    description: 'item --json that is not JSON',
    args: ['item', F, '--json', '{x}'],
    files: { [F]: doc() },
  },
  {
    name: 'item-json-without-value',
    description: '--json followed by a flag',
    args: ['item', F, '--json', '--ids'],
    files: { [F]: doc() },
  },
  {
    name: 'resolve-ids',
    description: 'resolve moves items to resolvedItems',
    args: ['resolve', F, '--ids', 'q, ghost'],
    files: { [F]: doc({ openItems: [{ at: T0, id: 'q', kind: 'x' }, 7] }) },
  },
  {
    name: 'resolve-json',
    description: 'resolve --json with an array, echoing the ids moved',
    args: ['resolve', F, '--json', '["q",5,"q"]'],
    files: { [F]: doc({ openItems: [{ at: T0, id: 'q', kind: 'x' }] }) },
  },
  {
    name: 'resolve-json-scalar',
    description: 'resolve --json with one id',
    args: ['resolve', F, '--json', '"q"'],
    files: { [F]: doc({ openItems: [{ at: T0, id: 'q', kind: 'x' }] }) },
  },
  {
    name: 'resolve-ids-first',
    description: '--ids wins over --json; the first --ids wins',
    args: ['resolve', F, '--json', '["p"]', '--ids', 'q', '--ids', 'p'],
    files: {
      [F]: doc({
        openItems: [
          { at: T0, id: 'q' },
          { at: T0, id: 'p' },
        ],
      }),
    },
  },
  {
    name: 'resolve-missing',
    description: 'resolve without --ids or --json',
    args: ['resolve', F],
    files: { [F]: doc() },
  },
  {
    name: 'resolve-bad-json',
    description: 'resolve --json that is not JSON',
    args: ['resolve', F, '--json', '[q]'],
    files: { [F]: doc() },
  },

  // ── validation ──────────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'validation-green',
    description: 'validation green with a note',
    args: ['validation', F, 'green', '--note', 'lint, unit'],
    files: { [F]: doc() },
  },
  {
    name: 'validation-alias',
    description: 'fail is red',
    args: ['validation', F, 'fail'],
    files: { [F]: doc() },
  },
  {
    name: 'validation-bad',
    description: 'an unknown verdict',
    args: ['validation', F, 'maybe'],
    files: { [F]: doc() },
  },
  {
    name: 'validation-missing',
    description: 'validation without a verdict',
    args: ['validation', F],
    files: { [F]: doc() },
  },
];
