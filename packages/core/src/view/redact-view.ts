import { redactSecretsIn, redactSecretsInShared } from '../text/secrets.js';
import type { RunView, UnitView } from './run-view.js';

/**
 * Units redacted by the thread that derived them (a pool thread reading a team run ahead: index-cache-prefetch.ts),
 * by the unit: the same `redactSecretsIn` of the same unit, which a RunView's redaction then takes instead of
 * walking the unit again. A unit holds no key that changes how its strings are redacted above it (a unit's strings
 * are told their own keys), so redacting it alone gives what redacting it inside its run gives.
 */
const redactedUnits = new WeakMap<UnitView, UnitView>();

/** Keeps `redacted`, which is `redactSecretsIn(unit)`, for `redactRunView`. */
export function keepRedactedUnit(unit: UnitView, redacted: UnitView): void {
  redactedUnits.set(unit, redacted);
}

/**
 * `redactSecretsIn(view)`, taking the units already redacted (`keepRedactedUnit`) as they are. With `memo`, it is
 * `redactSecretsInShared(view, memo)` (the project index's redaction by identity), the kept units put in the memo.
 */
export function redactRunView(view: RunView, memo?: WeakMap<object, unknown>): RunView {
  if (memo) {
    for (const u of view.units) {
      const r = redactedUnits.get(u);
      if (r !== undefined && !memo.has(u)) memo.set(u, r);
    }
    return redactSecretsInShared(view, memo);
  }
  let units: UnitView[] | undefined;
  view.units.forEach((u, i) => {
    const r = redactedUnits.get(u) ?? redactSecretsIn(u);
    if (r === u) return;
    units ??= view.units.slice();
    units[i] = r;
  });
  const rest = redactSecretsIn({ ...view, units: [] as readonly UnitView[] });
  return { ...rest, units: units ?? view.units };
}
