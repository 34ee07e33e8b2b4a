import { createHash } from 'node:crypto';
import type { RunView } from '@ckpt/core';

/** How one run changed between two loads: units by id (added, changed or gone). */
export interface RunDelta {
  /** `<dialect>/<id>`. */
  readonly key: string;
  readonly kind: 'added' | 'changed' | 'removed';
  /** Units whose facts changed or that appeared (changed runs only). */
  readonly units?: readonly string[];
  /** Units that are gone (changed runs only). */
  readonly unitsRemoved?: readonly string[];
}

/** What a load changed: the runs (with their new views) and the order of every run (newest first). */
export interface LoadDiff {
  readonly deltas: readonly RunDelta[];
  /** The views of the added and changed runs. */
  readonly changed: readonly RunView[];
  /** Every run's key, newest first. */
  readonly order: readonly string[];
}

/**
 * What the server thread keeps of a run: who it is and its one-line state. The run itself (units, files, plan)
 * stays where it was loaded, and the documents built from it come from there (answer.ts).
 */
export interface RunHead {
  readonly dialect: string;
  readonly id: string;
  readonly title: string;
  readonly status: string;
  readonly tone: RunView['tone'];
}

/** A load's diff as the loader thread posts it: heads, not views. */
export interface HeadDiff {
  readonly deltas: readonly RunDelta[];
  /** The heads of the added and changed runs. */
  readonly changed: readonly RunHead[];
  readonly order: readonly string[];
}

export const runKey = (r: RunHead): string => `${r.dialect}/${r.id}`;

/**
 * A run by dialect and exact id, from a map by `runKey` and the list it was made from. An id a URL cannot carry
 * (a lone surrogate, which a JSON file can hold) arrives with U+FFFD in its place (the client's `uriPart`): such
 * an id is also matched in that spelling.
 */
export function lookupRun<T extends { readonly dialect: string; readonly id: string }>(
  byKey: ReadonlyMap<string, T>,
  list: readonly T[],
  dialect: string,
  id: string,
): T | undefined {
  const exact = byKey.get(`${dialect}/${id}`);
  if (exact !== undefined || !id.includes('\uFFFD')) return exact;
  return list.find((r) => r.dialect === dialect && r.id.replace(/\p{Cs}/gu, '\uFFFD') === id);
}

export const headOf = (r: RunView): RunHead => ({
  dialect: r.dialect,
  id: r.id,
  title: r.title,
  status: r.status,
  tone: r.tone,
});

export const headDiff = (d: LoadDiff): HeadDiff => ({ ...d, changed: d.changed.map(headOf) });

/** Digests of documents by identity: a unit or list the index kept from the last load is not serialised again. */
const digests = new WeakMap<object, string>();

function digest(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'undefined';
  let d = digests.get(value);
  if (d === undefined) {
    d = createHash('sha1').update(JSON.stringify(value)).digest('base64url');
    digests.set(value, d);
  }
  return d;
}

/** Whether two values of a run's field are the same: the same object, lists of the same objects, or equal JSON. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    if (i === a.length) return true;
  }
  return (
    typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && digest(a) === digest(b)
  );
}

/**
 * Remembers every run as last posted, so a new load says which runs and units changed: SSE clients re-fetch
 * those, not every run. It keeps the views themselves (the index holds them anyway) and compares by identity
 * first: the index re-derives only what changed and keeps the other units' objects, so a run of 10,000 units
 * with one new event costs one unit's serialisation, not 10,000.
 */
export class RunDiffer {
  private held = new Map<string, RunView>();

  /** @param only the keys of the runs that may have changed (default: every run is compared) */
  diff(runs: readonly RunView[], only?: ReadonlySet<string>): LoadDiff {
    const deltas: RunDelta[] = [];
    const changed: RunView[] = [];
    const next = new Map<string, RunView>();
    for (const run of runs) {
      const key = runKey(run);
      const old = this.held.get(key);
      next.set(key, run);
      if (only && !only.has(key) && old) {
        next.set(key, old);
        continue;
      }
      if (!old) {
        deltas.push({ key, kind: 'added' });
        changed.push(run);
        continue;
      }
      if (old === run) continue;
      const before = new Map(old.units.map((u) => [u.id, u]));
      const touched: string[] = [];
      for (const u of run.units) {
        const was = before.get(u.id);
        before.delete(u.id);
        if (!was || !same(was, u)) touched.push(u.id);
      }
      const gone = [...before.keys()];
      const fields = new Set([...Object.keys(run), ...Object.keys(old)]);
      fields.delete('units');
      let head = false;
      for (const f of fields)
        if (
          !same(
            (old as unknown as Record<string, unknown>)[f],
            (run as unknown as Record<string, unknown>)[f],
          )
        ) {
          head = true;
          break;
        }
      if (head || touched.length > 0 || gone.length > 0) {
        deltas.push({ key, kind: 'changed', units: touched, unitsRemoved: gone });
        changed.push(run);
      }
    }
    for (const key of this.held.keys()) if (!next.has(key)) deltas.push({ key, kind: 'removed' });
    this.held = next;
    return { deltas, changed, order: runs.map(runKey) };
  }
}
