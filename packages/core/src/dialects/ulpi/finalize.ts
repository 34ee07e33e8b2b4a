import { isObject, own, type UlpiDoc, unitEntries, unitStatus } from './model.js';

function coverageProblems(c: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const total = c.total;
  if (!Number.isInteger(total) || (total as number) < 1)
    problems.push('selected-scope coverage total is invalid');
  for (const group of ['covered', 'dropped', 'uncovered']) {
    const ids = c[group];
    if (!Array.isArray(ids)) {
      problems.push(`selected-scope coverage ${group} is not an array`);
      continue;
    }
    for (const id of ids) {
      if (typeof id !== 'string' || id.trim() === '')
        problems.push(`${group} contains an invalid selected-scope id`);
      else if (seen.has(id))
        problems.push(`selected-scope item ${id} appears in both ${seen.get(id)} and ${group}`);
      else seen.set(id, group);
    }
  }
  if (Number.isInteger(total) && total !== seen.size)
    problems.push(`selected-scope coverage accounts for ${seen.size} of ${String(total)} item(s)`);
  if (!Array.isArray(c.errors)) problems.push('selected-scope coverage errors is not an array');
  else if (c.errors.length > 0) problems.push(`${c.errors.length} selected-scope coverage error(s)`);
  if (Array.isArray(c.uncovered) && c.uncovered.length > 0)
    problems.push(`${c.uncovered.length} selected-scope item(s) UNCOVERED: ${c.uncovered.join(', ')}`);
  return problems;
}

/**
 * Why `finalize done` must refuse, in the original's order: units not done, blocked phases, required phases not
 * done, open findings, a coordinator pipeline without a valid coverage receipt, a required validation not green.
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
    ? required.filter((p) => own(own(phases, String(p)), 'status') !== 'done').map(String)
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
    else reasons.push(...coverageProblems(coverage));
  }
  if (own(doc, 'requireValidation')) {
    const fv = own(doc, 'finalValidation');
    if (own(fv, 'status') !== 'green')
      reasons.push(
        fv ? `final validation is ${String(own(fv, 'status'))} (not green)` : 'final validation is absent',
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
