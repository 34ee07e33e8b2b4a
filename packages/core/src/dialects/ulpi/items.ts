import { createHash } from '../../util/crypto.js';
import { isObject, setOwn } from './model.js';

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    // The original assigns with `out[k] = ...`, so a `__proto__` key never reaches its JSON: skip it too.
    for (const k of Object.keys(v).sort())
      if (k !== '__proto__') out[k] = sortKeys((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/**
 * A finding's stable id: its own non-empty `id`, else `f-` + the first 12 hex of the sha1 of the JSON of the item
 * without `at` and `id`, keys sorted by plain code-unit order. Re-reporting the same finding gives the same id.
 */
export function ulpiStableId(item: Record<string, unknown>): string {
  const own = Object.hasOwn(item, 'id') ? item.id : undefined;
  if (typeof own === 'string' && own.trim() !== '') return own;
  const content: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) if (k !== 'at' && k !== 'id') setOwn(content, k, v);
  return `f-${createHash('sha1')
    .update(JSON.stringify(sortKeys(content)))
    .digest('hex')
    .slice(0, 12)}`;
}

/**
 * Upserts items into `openItems` in place: an object gets its stable id and is replaced where an item with that
 * id is (keeping the first `at`) or appended with `at: stamp`; anything else is appended as given. Returns the ids.
 */
export function upsertUlpiItems(openItems: unknown[], input: unknown, stamp: string): string[] {
  const incoming = Array.isArray(input) ? input : [input];
  const ids: string[] = [];
  for (const raw of incoming) {
    if (!isObject(raw)) {
      openItems.push(raw);
      continue;
    }
    const id = ulpiStableId(raw);
    const idx = openItems.findIndex((x) => isObject(x) && x.id === id);
    const prev = idx >= 0 ? (openItems[idx] as Record<string, unknown>) : undefined;
    // `{at, ...raw, id}`: a given `at` wins but the key stays first; the id lands where raw had one, else last.
    const item: Record<string, unknown> = {};
    // The first-seen `at` is kept whatever it is (a caller may have given a number); a given `at` wins below.
    setOwn(item, 'at', prev?.at || stamp);
    for (const [k, v] of Object.entries(raw)) setOwn(item, k, v);
    setOwn(item, 'id', id);
    if (idx >= 0) openItems[idx] = item;
    else openItems.push(item);
    ids.push(id);
  }
  return ids;
}

/**
 * Moves open items with these ids to `resolvedItems` stamped `resolvedAt`; unknown ids are no-ops. Returns the ids
 * moved, as given (a JSON id list may hold numbers).
 */
export function resolveUlpiItems(
  openItems: unknown[],
  resolvedItems: unknown[],
  ids: readonly unknown[],
  stamp: string,
): unknown[] {
  const moved: unknown[] = [];
  for (const id of ids) {
    const idx = openItems.findIndex((x) => isObject(x) && x.id === id);
    if (idx < 0) continue;
    const [it] = openItems.splice(idx, 1) as [Record<string, unknown>];
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(it)) setOwn(out, k, v);
    setOwn(out, 'resolvedAt', stamp);
    resolvedItems.push(out);
    moved.push(id);
  }
  return moved;
}
