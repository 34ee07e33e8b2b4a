import { hasNoText, valueText } from '../../text/value-text.js';
import { ulpiUsage } from './errors.js';
import { isObject, own, pointer, unitEntries } from './model.js';
import { describeJson } from './store.js';

/** The index of an array's first item that cannot be made text (see `hasNoText`); -1 for none or a non-array. */
function firstWithoutText(value: unknown): number {
  return Array.isArray(value) ? value.findIndex(hasNoText) : -1;
}

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
    // Each id is looked up as a key (`units[d]`): one that cannot be made text throws there.
    const at = firstWithoutText(deps);
    if (at >= 0)
      throw ulpiUsage(
        `${file}: unit '${id}' depends on ${valueText((deps as unknown[])[at])}, which is not a unit id — fix ${pointer('units', id, 'dependsOn', at)}`,
      );
  }
}

/**
 * Where the original's `finalize done` throws a TypeError (exit 1, the file unchanged) before it decides: a truthy
 * `requiredPhases` that is not an array, an entry of it that cannot be made text (looked up as a key, then joined
 * into the refusal), an id that cannot be made text in the coverage receipt of a coordinator pipeline (named in a
 * problem or joined), or such a status of a required validation. ckpt stops there too, saying what to fix.
 */
export function assertFinalizeReadable(file: string, doc: unknown): void {
  const stop = (what: string, ...at: (string | number)[]) =>
    ulpiUsage(`${file}: ${what} — fix ${pointer(...at)} (ckpt validate ${file} shows where)`);
  const required = own(doc, 'requiredPhases');
  if (required && !Array.isArray(required))
    throw stop(`requiredPhases is ${describeJson(required)}, not an array of phase names`, 'requiredPhases');
  const phase = firstWithoutText(required);
  if (phase >= 0)
    throw stop(
      `required phase ${valueText((required as unknown[])[phase])} is not a phase name`,
      'requiredPhases',
      phase,
    );
  const pipeline = own(doc, 'pipeline');
  const coverage = isObject(pipeline) ? own(pipeline, 'scopeCoverage') : undefined;
  if (isObject(coverage))
    for (const group of ['covered', 'dropped', 'uncovered']) {
      const ids = own(coverage, group);
      const k = firstWithoutText(ids);
      if (k >= 0)
        throw stop(
          `the coverage receipt's ${group} holds ${valueText((ids as unknown[])[k])}, which is not an id`,
          'pipeline',
          'scopeCoverage',
          group,
          k,
        );
    }
  const validation = own(doc, 'finalValidation');
  if (own(doc, 'requireValidation') && validation && hasNoText(own(validation, 'status')))
    throw stop(
      `the final validation's status is ${valueText(own(validation, 'status'))}, not green or red`,
      'finalValidation',
      'status',
    );
}
