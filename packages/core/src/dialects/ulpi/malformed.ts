import { ulpiUsage } from './errors.js';
import { isObject, own, pointer, unitEntries } from './model.js';
import { describeJson } from './store.js';

/**
 * Where the original checkpoint.mjs crashes on a unit (`null` where a unit object should be, or a truthy
 * `dependsOn` that is not an array) or would take the characters of a `units` string for unit ids, the compatible
 * verbs answer with exit 1 and say what to fix, instead of guessing. Readers (validate, status, the viewer) stay tolerant and report the same places as findings.
 */
export function assertUnitsReadable(file: string, doc: unknown, o: { deps?: boolean } = {}): void {
  const units = own(doc, 'units');
  // The original walks `units || {}`: a string's characters or an array's indexes would pass for unit ids.
  if (units !== undefined && units !== null && !isObject(units))
    throw ulpiUsage(
      `${file}: units is ${describeJson(units)}, not an object of units — fix /units (ckpt validate ${file} shows where)`,
    );
  for (const [id, unit] of unitEntries(doc)) {
    if (unit === null)
      throw ulpiUsage(
        `${file}: unit '${id}' is null, not a unit object — fix ${pointer('units', id)} (ckpt validate ${file} shows where)`,
      );
    // Only a unit that is not done has its dependencies read (a done unit is skipped first).
    if (!o.deps || !isObject(unit) || unit.status === 'done') continue;
    const deps = unit.dependsOn;
    if (deps && !Array.isArray(deps))
      throw ulpiUsage(
        `${file}: unit '${id}' has dependsOn ${JSON.stringify(deps)}, not an array of unit ids — fix ${pointer('units', id, 'dependsOn')}`,
      );
  }
}
