import { type Finding, findingAt } from '../../findings/finding.js';
import { valueText } from '../../text/value-text.js';
import type { CheckedDocument } from '../dialect.js';
import { type UlpiCode, ulpiCodes } from './codes.js';
import { dependencyCycles } from './graph.js';
import { isObject, own, parseStamp, pointer, str, unitDeps, unitEntries, unitStatus } from './model.js';
import { timestampFindings } from './rules-time.js';

/** Emits a finding of a ulpi code at a pointer of the document. */
export type Emit = (
  code: UlpiCode,
  ptr: string,
  message: string,
  part?: 'value' | 'key',
  hint?: string,
) => void;

export function emitterFor(doc: CheckedDocument, out: Finding[]): Emit {
  return (code, ptr, message, part = 'value', hint) => {
    const loc = doc.sourceMap?.locate(ptr, part) ?? { line: 1, column: 1 };
    out.push(
      findingAt(doc.file, loc, {
        code,
        severity: ulpiCodes[code].severity,
        message,
        pointer: ptr,
        ...(hint !== undefined ? { hint } : {}),
      }),
    );
  };
}

// The run cannot finish while a unit waits for something that never becomes done: say so, and how to unblock it.
const FOREVER =
  'this blocks the run forever: resume keeps the unit dep_blocked and finalize done refuses while it is not done';

function dependencyRules(value: unknown, emit: Emit): void {
  const entries = unitEntries(value);
  const byId = new Map(entries);
  const done = (id: string) => unitStatus(byId.get(id)) === 'done';
  const edges = new Map<string, string[]>();
  for (const [id, unit] of entries) {
    const deps = unitDeps(unit);
    edges.set(id, deps);
    const raw = own(unit, 'dependsOn');
    deps.forEach((d, i) => {
      if (!byId.has(d))
        emit(
          'ulpi/unknown-dependency',
          Array.isArray(raw) ? pointer('units', id, 'dependsOn', i) : pointer('units', id, 'dependsOn'),
          `unit "${id}" depends on "${d}", which is not a unit: it counts as not done, so "${id}" stays dep_blocked`,
          'value',
          `${FOREVER}; add the unit "${d}" or fix the id in dependsOn`,
        );
    });
    const status = unitStatus(unit);
    const open = deps.filter((d) => byId.has(d) && !done(d));
    if (status === 'done' && open.length > 0)
      emit(
        'ulpi/done-with-open-dependency',
        pointer('units', id, 'status'),
        `unit "${id}" is done, but its dependency ${open.map((d) => `"${d}"`).join(', ')} is not done`,
      );
    if (status === 'dep_blocked' && deps.every(done))
      emit(
        'ulpi/stale-dep-blocked',
        pointer('units', id, 'status'),
        `unit "${id}" is stored dep_blocked, but ${deps.length === 0 ? 'it has no dependencies' : 'all its dependencies are done'}: resume treats it as eligible`,
      );
  }
  for (const cycle of dependencyCycles([...byId.keys()], edges))
    emit(
      'ulpi/dependency-cycle',
      pointer('units', cycle[0]!, 'dependsOn'),
      `units ${cycle.map((c) => `"${c}"`).join(' → ')} depend on each other in a cycle: none can become eligible`,
      'value',
      `${FOREVER}; remove one dependency of the cycle`,
    );
}

function finalizeRules(value: unknown, emit: Emit): void {
  if (own(value, 'status') !== 'done') return;
  const open = unitEntries(value)
    .filter(([, u]) => unitStatus(u) !== 'done')
    .map(([id]) => id);
  if (open.length > 0)
    emit(
      'ulpi/done-with-open-units',
      '/status',
      `the run is done, but ${open.length} unit(s) are not done: ${open.slice(0, 5).join(', ')}${open.length > 5 ? ', …' : ''}`,
    );
  const items = own(value, 'openItems');
  if (Array.isArray(items) && items.length > 0)
    emit(
      'ulpi/done-with-open-items',
      '/openItems',
      `the run is done, but ${items.length} open item(s) remain in openItems`,
    );
  const phases = own(value, 'phases');
  const blocked = isObject(phases)
    ? Object.entries(phases)
        .filter(([, p]) => own(p, 'status') === 'blocked')
        .map(([k]) => k)
    : [];
  const required = own(value, 'requiredPhases');
  const missing = Array.isArray(required)
    ? required.filter((p) => own(own(phases, valueText(p)), 'status') !== 'done').map(valueText)
    : [];
  if (blocked.length > 0 || missing.length > 0)
    emit(
      'ulpi/done-with-open-phases',
      '/status',
      `the run is done, but ${[...(blocked.length ? [`phase(s) blocked: ${blocked.join(', ')}`] : []), ...(missing.length ? [`required phase(s) not done: ${missing.join(', ')}`] : [])].join('; ')}`,
    );
  if (own(value, 'requireValidation') === true && own(own(value, 'finalValidation'), 'status') !== 'green')
    emit(
      'ulpi/done-without-validation',
      '/requireValidation',
      'the run requires validation and is done, but finalValidation is not green',
    );
}

/** Why a launch descriptor is malformed (init's rules) and where, or undefined for a valid typed descriptor. */
export function launchProblem(launch: unknown): { message: string; pointer: string } | undefined {
  if (!isObject(launch))
    return {
      pointer: '/launch',
      message: `launch must be a JSON object {scriptPath, args}, got ${Array.isArray(launch) ? 'an array' : launch === null ? 'null' : typeof launch}`,
    };
  const script = own(launch, 'scriptPath');
  if (typeof script !== 'string' || script.trim() === '')
    return {
      pointer: Object.hasOwn(launch, 'scriptPath') ? '/launch/scriptPath' : '/launch',
      message: 'launch.scriptPath must be a non-empty string',
    };
  if (Object.hasOwn(launch, 'args') && !isObject(launch.args))
    return { pointer: '/launch/args', message: 'launch.args must be a JSON object when present' };
  return undefined;
}

/** The per-document semantic rules of a status document (v1 or v2). Pure. */
export function checkUlpiStatus(doc: CheckedDocument): Finding[] {
  const value = doc.value;
  if (!isObject(value)) return [];
  const out: Finding[] = [];
  const emit = emitterFor(doc, out);
  dependencyRules(value, emit);
  finalizeRules(value, emit);
  const status = str(value, 'status');
  if ((status === 'running' || status === 'initializing') && Object.hasOwn(value, 'finishedAt'))
    emit(
      'ulpi/finished-at-on-live-run',
      '/finishedAt',
      `the run is ${status} but carries finishedAt (stamped only by finalize)`,
    );
  if (Object.hasOwn(value, 'launch')) {
    const problem = launchProblem(value.launch);
    if (problem)
      emit(
        'ulpi/malformed-launch',
        problem.pointer,
        `${problem.message}: resume classifies it no-launch (non-runnable)`,
      );
  }
  timestampFindings(value, emit, parseStamp);
  return out;
}

/** Keeps ajv's findings except those under `/launch` when the malformed-launch rule explains them. */
export function filterUlpiSchemaFindings(
  schema: readonly Finding[],
  semantic: readonly Finding[],
): Finding[] {
  if (!semantic.some((f) => f.code === 'ulpi/malformed-launch')) return [...schema];
  return schema.filter((f) => f.pointer !== '/launch' && !f.pointer.startsWith('/launch/'));
}
