import { fcParams } from '@ckpt/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { own, unitEntries, unitStatus } from './model.js';
import { type UlpiResumeSet, ulpiResumeSet } from './resume.js';

/** A unit's dependencies as written (a string counts as one, other non-arrays as none); values looked up as keys. */
function rawDeps(unit: unknown): unknown[] {
  const d = own(unit, 'dependsOn');
  if (typeof d === 'string') return d === '' ? [] : [d];
  return Array.isArray(d) ? d : [];
}

/** The contract read literally (FORMATS.md §3): one fresh root walk per dep_blocked unit, quadratic on a chain. */
function referenceResumeSet(doc: unknown): UlpiResumeSet {
  const entries = unitEntries(doc);
  const byId = new Map(entries);
  const done = (d: unknown) => unitStatus(byId.get(String(d))) === 'done';
  const out: UlpiResumeSet = { skip: [], eligible: [], dep_blocked: {} };
  for (const [id, unit] of entries) {
    if (unitStatus(unit) === 'done') {
      out.skip.push(id);
      continue;
    }
    const missing = rawDeps(unit).filter((d) => !done(d));
    if (missing.length === 0) {
      out.eligible.push(id);
      continue;
    }
    let root = missing[0];
    const seen = new Set<unknown>();
    while (!seen.has(root)) {
      seen.add(root);
      const next = rawDeps(byId.get(String(root))).find((d) => !done(d));
      if (next === undefined) break;
      root = next;
    }
    Object.defineProperty(out.dep_blocked, id, { value: root, enumerable: true });
  }
  return out;
}

const same = (doc: unknown) => {
  const fast = ulpiResumeSet(doc);
  const ref = referenceResumeSet(doc);
  expect(fast).toEqual(ref);
  // Key order is part of the output (the original prints it): compare the serialized form too.
  expect(JSON.stringify(fast)).toBe(JSON.stringify(ref));
};

describe('ulpiResumeSet', () => {
  it('should give exactly the reference result on random graphs with cycles, unknown ids and bad units', () => {
    // A small id pool makes cycles, shared tails and self-loops common; `ghost*` are never units.
    const ids = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', '__proto__', 'constructor', 'ghost', '7');
    const status = fc.constantFrom('pending', 'in_progress', 'done', 'done', 'blocked', 'dep_blocked', 'x');
    const deps = fc.oneof(
      { weight: 6, arbitrary: fc.array(fc.oneof(ids, fc.constant(null)), { maxLength: 3 }) },
      { weight: 1, arbitrary: ids },
      { weight: 1, arbitrary: fc.constant('') },
      { weight: 1, arbitrary: fc.integer() },
    );
    const unit = fc.oneof(
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constant('pending') },
      { weight: 10, arbitrary: fc.record({ status, dependsOn: deps }, { requiredKeys: ['status'] }) },
    );
    fc.assert(
      fc.property(fc.dictionary(ids, unit, { maxKeys: 10 }), (units) => same({ units })),
      fcParams(500),
    );
  });

  it('should give the reference result on long random chains that fan in and close cycles', () => {
    const graph = fc.integer({ min: 2, max: 60 }).chain((n) =>
      fc.array(
        fc.record({
          status: fc.constantFrom('pending', 'done', 'in_progress'),
          // Mostly the previous unit (a chain), sometimes any unit (a fan-in or a back edge: a cycle) or a ghost.
          dep: fc.oneof(
            { weight: 6, arbitrary: fc.constant(-1) },
            { weight: 2, arbitrary: fc.integer({ min: 0, max: n - 1 }) },
            { weight: 1, arbitrary: fc.constant(-2) },
          ),
        }),
        { minLength: n, maxLength: n },
      ),
    );
    fc.assert(
      fc.property(graph, (spec) => {
        const units: Record<string, unknown> = {};
        spec.forEach(({ status, dep }, i) => {
          const d = dep === -1 ? (i > 0 ? [`u${i - 1}`] : []) : dep === -2 ? ['ghost'] : [`u${dep}`];
          units[`u${i}`] = { status, dependsOn: d };
        });
        same({ units });
      }),
      fcParams(300),
    );
  });

  it('should stay linear: a bounded number of reads per unit on a long chain and on a long tail into a cycle', () => {
    // Work done, not time (timing is packages/bench's resume-scale, as a ratio): every read of a unit's fields
    // is counted. The quadratic walk reads about n/2 units per unit here; a linear one a constant few.
    const readsPerUnit = (n: number, cycle: boolean) => {
      let reads = 0;
      const units: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) {
        const unit = { status: 'pending', dependsOn: i > 0 ? [`u${i - 1}`] : cycle ? [`u${n - 1}`] : [] };
        units[`u${i}`] = new Proxy(unit, {
          get: (t, k) => {
            reads++;
            return Reflect.get(t, k);
          },
          getOwnPropertyDescriptor: (t, k) => {
            reads++;
            return Reflect.getOwnPropertyDescriptor(t, k);
          },
        });
      }
      const set = ulpiResumeSet({ units });
      expect(Object.keys(set.dep_blocked)).toHaveLength(cycle ? n : n - 1);
      // On a chain every unit's root is u0; on one cycle each unit's root is the unit it depends on.
      expect(set.dep_blocked.u5).toBe(cycle ? 'u4' : 'u0');
      if (cycle) expect(set.dep_blocked.u0).toBe(`u${n - 1}`);
      return reads / n;
    };
    for (const cycle of [false, true]) {
      const small = readsPerUnit(1000, cycle);
      const large = readsPerUnit(8000, cycle);
      expect(large).toBeLessThanOrEqual(12);
      // Eight times the units, the same reads per unit (give or take the ends of the chain).
      expect(large).toBeLessThanOrEqual(small + 0.1);
    }
  });
});
