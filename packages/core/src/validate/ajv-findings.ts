import { type Finding, findingAt } from '../findings/finding.js';
import type { SourceMap } from '../parse/source-map.js';
import type { AjvError } from './validators.js';

const quote = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

const typeOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v;

function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let cur: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

const field = (pointer: string): string =>
  pointer === '' ? 'document' : `"${pointer.slice(1).replace(/\//g, '.')}"`;

interface Draft {
  code: string;
  pointer: string;
  part: 'value' | 'key';
  message: string;
}

function describe(e: AjvError, root: unknown): Draft {
  const p = e.instancePath;
  const v = valueAt(root, p);
  const params = e.params;
  switch (e.keyword) {
    case 'required':
      return {
        code: 'schema/required',
        pointer: p,
        part: 'value',
        message: `${field(p)} is missing required field "${String(params.missingProperty)}"`,
      };
    case 'type':
      return {
        code: 'schema/type',
        pointer: p,
        part: 'value',
        message: `${field(p)} must be ${String(params.type).replace(/,/g, ' or ')}, got ${typeOf(v)} ${quote(v)}`,
      };
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map((a) => (typeof a === 'string' ? a : quote(a)));
      return {
        code: 'schema/enum',
        pointer: p,
        part: 'value',
        message: `${field(p)} is ${quote(v)}; expected one of: ${allowed.join(', ')}`,
      };
    }
    case 'const':
      return {
        code: 'schema/const',
        pointer: p,
        part: 'value',
        message: `${field(p)} is ${quote(v)}; expected exactly ${quote(params.allowedValue)}`,
      };
    case 'format':
      return {
        code: 'schema/format',
        pointer: p,
        part: 'value',
        message: `${field(p)} is ${quote(v)}, not a valid ${String(params.format)}`,
      };
    case 'pattern':
      return {
        code: 'schema/pattern',
        pointer: p,
        part: 'value',
        message: `${field(p)} is ${quote(v)}, which does not match ${String(params.pattern)}`,
      };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return {
        code: 'schema/range',
        pointer: p,
        part: 'value',
        message: `${field(p)} is ${quote(v)}; it must be ${String(params.comparison)} ${String(params.limit)}`,
      };
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
    case 'minProperties':
    case 'maxProperties':
      return {
        code: 'schema/length',
        pointer: p,
        part: 'value',
        message: `${field(p)} ${e.message ?? 'has the wrong length'}`,
      };
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const child = `${p}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      return {
        code: 'schema/unknown-field',
        pointer: child,
        part: 'key',
        message: `unknown field ${field(child)}`,
      };
    }
    case 'propertyNames':
      return {
        code: 'schema/pattern',
        pointer: p,
        part: 'value',
        message: `${field(p)} has a key with the wrong shape: ${e.message ?? ''}`,
      };
    default:
      return {
        code: 'schema/invalid',
        pointer: p,
        part: 'value',
        message: `${field(p)} ${e.message ?? `fails ${e.keyword}`}`,
      };
  }
}

/** Collapses the branch errors of an anyOf/oneOf into one finding: a type union, or the most specific branch. */
/**
 * The errors of an anyOf/oneOf's branches. A branch that is a `$ref` reports errors under the referenced
 * schema's path (`#/$defs/...`), so besides the alternative's own sub-paths, the contiguous run of errors just
 * before it (ajv emits branch errors, then the alternative) at or below its instance path counts, when they
 * come from elsewhere than the alternative's sibling keywords.
 */
function branchErrors(errors: readonly AjvError[], alt: AjvError): AjvError[] {
  const own = `${alt.schemaPath}/`;
  const parent = alt.schemaPath.slice(0, alt.schemaPath.lastIndexOf('/') + 1);
  const within = (e: AjvError) =>
    e.instancePath === alt.instancePath || e.instancePath.startsWith(`${alt.instancePath}/`);
  const out = errors.filter((e) => e !== alt && e.schemaPath.startsWith(own));
  for (let i = errors.indexOf(alt) - 1; i >= 0; i--) {
    const e = errors[i]!;
    if (e.schemaPath.startsWith(own)) continue;
    const sibling = e.schemaPath.startsWith(parent) && !e.schemaPath.slice(parent.length).includes('/');
    if (!within(e) || sibling || e.keyword === 'anyOf' || e.keyword === 'oneOf') break;
    out.push(e);
  }
  return out;
}

function collapseAlternatives(errors: readonly AjvError[]): AjvError[] {
  const alternatives = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  if (alternatives.length === 0) return errors.filter((e) => e.keyword !== 'if');
  const out: AjvError[] = [];
  const consumed = new Set<AjvError>();
  for (const alt of alternatives) {
    const branch = branchErrors(errors, alt);
    branch.forEach((b) => consumed.add(b));
    if (alt.keyword === 'oneOf' && branch.length === 0) {
      out.push(alt);
      continue;
    }
    if (
      branch.length > 0 &&
      branch.every((b) => b.keyword === 'type' && b.instancePath === alt.instancePath)
    ) {
      const types = [...new Set(branch.map((b) => String(b.params.type)))].join(',');
      out.push({ ...branch[0]!, params: { type: types } });
      continue;
    }
    const deepest = [...branch].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
    out.push(deepest ?? alt);
  }
  for (const e of errors)
    if (!consumed.has(e) && !alternatives.includes(e) && e.keyword !== 'if') out.push(e);
  return out;
}

/** Turns ajv errors into findings: one per problem, located through the source map, worded for people. */
export function ajvErrorsToFindings(
  errors: readonly AjvError[],
  root: unknown,
  file: string,
  sourceMap: SourceMap,
): Finding[] {
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const e of collapseAlternatives(errors)) {
    const d = describe(e, root);
    const key = `${d.code} ${d.pointer} ${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(
      findingAt(file, sourceMap.locate(d.pointer, d.part), {
        code: d.code,
        severity: 'error',
        pointer: d.pointer,
        message: d.message,
      }),
    );
  }
  return out;
}
