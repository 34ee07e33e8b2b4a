import { valueText } from '../../text/value-text.js';
import { isObject, own, pointer } from './model.js';
import type { Emit } from './rules.js';

type Stamp = (s: unknown) => number;

/** `earlier` must not be after `later` (both parse); else a finding at `earlier`. */
function order(obj: unknown, base: string[], earlier: string, later: string, emit: Emit, stamp: Stamp): void {
  const a = stamp(own(obj, earlier));
  const b = stamp(own(obj, later));
  if (Number.isFinite(a) && Number.isFinite(b) && a > b)
    emit(
      'ulpi/timestamps-out-of-order',
      pointer(...base, earlier),
      `${[...base, earlier].join('.')} (${valueText(own(obj, earlier))}) is later than ${later} (${valueText(own(obj, later))})`,
    );
}

/**
 * Timestamp order: every write stamps `updatedAt` last, so within the document, a unit or a phase, `createdAt`,
 * `startedAt` and `finishedAt` are never after `updatedAt`, and a run never finishes before it was created.
 * (`startedAt` may be after `finishedAt`: a blocked unit restarted keeps its old finishedAt. A unit may be
 * updated after the document: event-log transitions and the jq recipe do not always stamp both.)
 */
export function timestampFindings(doc: Record<string, unknown>, emit: Emit, stamp: Stamp): void {
  order(doc, [], 'createdAt', 'updatedAt', emit, stamp);
  order(doc, [], 'createdAt', 'finishedAt', emit, stamp);
  for (const group of ['units', 'phases'] as const) {
    const map = own(doc, group);
    if (!isObject(map)) continue;
    for (const [id, item] of Object.entries(map)) {
      if (!isObject(item)) continue;
      for (const k of ['createdAt', 'startedAt', 'finishedAt'])
        order(item, [group, id], k, 'updatedAt', emit, stamp);
    }
  }
}
