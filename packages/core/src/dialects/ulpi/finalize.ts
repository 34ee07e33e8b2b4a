import { valueText } from '../../text/value-text.js';
import { isObject, own, type UlpiDoc, unitEntries, unitStatus } from './model.js';
import { intakeBindingProblems, scopeCoverageProblems } from './scope-coverage.js';

/**
 * Why `finalize done` must refuse, in the original's order: units not done, blocked phases, required phases not
 * done, open findings, a coordinator pipeline without a coverage receipt bound to its intake snapshot, a required
 * validation not green.
 * Empty when the run may be finalized done. Pure.
 */
export function ulpiFinalizeDoneProblems(doc: UlpiDoc): string[] {
  const reasons: string[] = [];
  const openUnits = unitEntries(doc)
    .filter(([, u]) => unitStatus(u) !== 'done')
    .map(([k]) => k);
  const phases = own(doc, 'phases');
  const blocked = isObject(phases)
    ? Object.entries(phases)
        .filter(([, p]) => own(p, 'status') === 'blocked')
        .map(([k]) => k)
    : [];
  const required = own(doc, 'requiredPhases');
  const requiredOpen = Array.isArray(required)
    ? required.filter((p) => own(own(phases, valueText(p)), 'status') !== 'done').map(valueText)
    : [];
  const items = own(doc, 'openItems');
  const openFindings = Array.isArray(items) ? items.length : 0;
  if (openUnits.length) reasons.push(`${openUnits.length} unit(s) not done: ${openUnits.join(', ')}`);
  if (blocked.length) reasons.push(`${blocked.length} phase(s) blocked: ${blocked.join(', ')}`);
  if (requiredOpen.length)
    reasons.push(`${requiredOpen.length} required phase(s) not done: ${requiredOpen.join(', ')}`);
  if (openFindings) reasons.push(`${openFindings} open finding(s) in openItems`);
  const pipeline = own(doc, 'pipeline');
  if (pipeline) {
    const coverage = own(pipeline, 'scopeCoverage');
    if (!isObject(coverage)) reasons.push('binding selected-scope coverage receipt is absent');
    else
      reasons.push(
        ...intakeBindingProblems(pipeline as Record<string, unknown>, coverage),
        ...scopeCoverageProblems(coverage),
      );
  }
  if (own(doc, 'requireValidation')) {
    const fv = own(doc, 'finalValidation');
    if (own(fv, 'status') !== 'green')
      reasons.push(
        fv ? `final validation is ${valueText(own(fv, 'status'))} (not green)` : 'final validation is absent',
      );
  }
  return reasons;
}

/** `get --summary`: the original's one-object summary (keys whose value is undefined are dropped by JSON). */
export function ulpiSummary(doc: UlpiDoc): Record<string, unknown> {
  const units = unitEntries(doc);
  const by = (s: string) => units.filter(([, u]) => unitStatus(u) === s).map(([k]) => k);
  return {
    id: own(doc, 'id'),
    status: own(doc, 'status'),
    task: own(doc, 'task'),
    currentPhase: own(doc, 'currentPhase') ?? null,
    total: units.length,
    done: by('done').length,
    blocked: by('blocked'),
    dep_blocked: by('dep_blocked'),
    in_progress: by('in_progress'),
    updatedAt: own(doc, 'updatedAt'),
  };
}
