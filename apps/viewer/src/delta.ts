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

export const headOf = (r: RunView): RunHead => ({
  dialect: r.dialect,
  id: r.id,
  title: r.title,
  status: r.status,
  tone: r.tone,
});

export const headDiff = (d: LoadDiff): HeadDiff => ({ ...d, changed: d.changed.map(headOf) });

const digest = (value: unknown) => createHash('sha1').update(JSON.stringify(value)).digest('base64url');

interface Held {
  readonly head: string;
  readonly units: Map<string, string>;
}

/**
 * Remembers a digest of every run (its facts without units) and of each of its units, so a new load says which
 * runs and units changed: SSE clients re-fetch those, not every run. Digests, not copies: a 10,000-unit run costs
 * ~10,000 short strings.
 */
export class RunDiffer {
  private held = new Map<string, Held>();

  /** @param only the keys of the runs that may have changed (default: every run is compared) */
  diff(runs: readonly RunView[], only?: ReadonlySet<string>): LoadDiff {
    const deltas: RunDelta[] = [];
    const changed: RunView[] = [];
    const next = new Map<string, Held>();
    for (const run of runs) {
      const key = runKey(run);
      const kept = only && !only.has(key) ? this.held.get(key) : undefined;
      if (kept) {
        next.set(key, kept);
        continue;
      }
      const { units, ...rest } = run;
      const h: Held = { head: digest(rest), units: new Map(units.map((u) => [u.id, digest(u)])) };
      next.set(key, h);
      const old = this.held.get(key);
      if (!old) {
        deltas.push({ key, kind: 'added' });
        changed.push(run);
        continue;
      }
      const touched = [...h.units].filter(([id, d]) => old.units.get(id) !== d).map(([id]) => id);
      const gone = [...old.units.keys()].filter((id) => !h.units.has(id));
      if (old.head !== h.head || touched.length > 0 || gone.length > 0) {
        deltas.push({ key, kind: 'changed', units: touched, unitsRemoved: gone });
        changed.push(run);
      }
    }
    for (const key of this.held.keys()) if (!next.has(key)) deltas.push({ key, kind: 'removed' });
    this.held = next;
    return { deltas, changed, order: runs.map(runKey) };
  }
}
