import { valueText } from '../../text/value-text.js';
import { isObject } from './model.js';

const GROUPS = ['covered', 'dropped', 'uncovered'] as const;
const SHA256 = /^[a-f0-9]{64}$/;
const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';
// Ids are printed as a template literal prints them (`${id}`): a number as its digits, null as "null".
const show = valueText;

/**
 * Why a coverage receipt (`pipeline.scopeCoverage`) does not account for the selected scope, in the original's
 * order: an invalid total, a group that is not an array, invalid or repeated ids, a count that does not add up,
 * coverage errors, uncovered items.
 */
export function scopeCoverageProblems(c: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const total = c.total;
  const totalOk = Number.isInteger(total);
  if (!totalOk || (total as number) < 1) problems.push('selected-scope coverage total is invalid');
  for (const group of GROUPS) {
    const ids = c[group];
    if (!Array.isArray(ids)) {
      problems.push(`selected-scope coverage ${group} is not an array`);
      continue;
    }
    for (const id of ids) {
      if (blank(id)) problems.push(`${group} contains an invalid selected-scope id`);
      else if (seen.has(id))
        problems.push(`selected-scope item ${id} appears in both ${seen.get(id)} and ${group}`);
      else seen.set(id, group);
    }
  }
  if (totalOk && total !== seen.size)
    problems.push(`selected-scope coverage accounts for ${seen.size} of ${show(total)} item(s)`);
  if (!Array.isArray(c.errors)) problems.push('selected-scope coverage errors is not an array');
  else if (c.errors.length > 0) problems.push(`${c.errors.length} selected-scope coverage error(s)`);
  if (Array.isArray(c.uncovered) && c.uncovered.length > 0)
    problems.push(`${c.uncovered.length} selected-scope item(s) UNCOVERED: ${c.uncovered.join(', ')}`);
  return problems;
}

/**
 * Why the receipt is not bound to an independent intake snapshot (since 2b62153): `intakePath`, the two sha256
 * bindings, `intakeSelection`, a non-empty `intakeScope` of items with id, title and source, receipt ids equal to
 * the intake ids, and the receipt total equal to the intake size. In the original's order.
 */
export function intakeBindingProblems(
  pipeline: Record<string, unknown>,
  c: Record<string, unknown>,
): string[] {
  const problems: string[] = [];
  if (blank(pipeline.intakePath)) problems.push('independent intake snapshot path is absent');
  for (const key of ['intakeFileSha', 'intakeScopeSha']) {
    const v = pipeline[key];
    if (typeof v !== 'string' || !SHA256.test(v)) problems.push(`${key} is not a valid sha256 binding`);
  }
  if (blank(pipeline.intakeSelection)) problems.push('intake selection is absent');
  const intake = Array.isArray(pipeline.intakeScope) ? pipeline.intakeScope : [];
  if (intake.length === 0) problems.push('independent intake scope is absent');
  const intakeIds = new Set<string>();
  for (const item of intake) {
    const id = isObject(item) ? item.id : undefined;
    if (typeof id !== 'string' || id.trim() === '') {
      problems.push('intake scope contains an invalid id');
      continue;
    }
    if (intakeIds.has(id)) problems.push(`intake scope contains duplicate id ${id}`);
    intakeIds.add(id);
    if (blank((item as Record<string, unknown>).title) || blank((item as Record<string, unknown>).source))
      problems.push(`intake scope item ${id} is missing title/source`);
  }
  const receiptIds = new Set<unknown>(
    GROUPS.flatMap((g) => (Array.isArray(c[g]) ? (c[g] as unknown[]) : [])),
  );
  for (const id of intakeIds)
    if (!receiptIds.has(id)) problems.push(`intake scope item ${id} is absent from coverage receipt`);
  for (const id of receiptIds)
    if (!intakeIds.has(id as string)) problems.push(`coverage receipt contains non-intake id ${show(id)}`);
  if (Number.isInteger(c.total) && c.total !== intakeIds.size)
    problems.push(`scope coverage total ${show(c.total)} does not match ${intakeIds.size} intake item(s)`);
  return problems;
}
