import type { JsonSchema } from '@ckpt/schemas';
import { type Finding, findingAt } from '../findings/finding.js';
import { escapePointerToken } from '../parse/json-scanner.js';
import type { SourceMap } from '../parse/source-map.js';

type Schema = { [k: string]: unknown };

function resolve(schema: Schema, root: Schema): Schema {
  let s = schema;
  for (let hops = 0; typeof s.$ref === 'string' && hops < 32; hops++) {
    const ref = s.$ref as string;
    if (!ref.startsWith('#/')) return s;
    let target: unknown = root;
    for (const t of ref.slice(2).split('/'))
      target = (target as Schema | undefined)?.[t.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (!target || typeof target !== 'object') return s;
    s = { ...(target as Schema), ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$ref')) };
  }
  return s;
}

/** Every object-describing subschema that applies to a value: the schema itself plus allOf/anyOf/oneOf parts. */
function parts(schema: Schema, root: Schema): Schema[] {
  const s = resolve(schema, root);
  const out = [s];
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[k];
    if (Array.isArray(list)) for (const sub of list) out.push(...parts(sub as Schema, root));
  }
  for (const k of ['then', 'else'] as const)
    if (s[k] && typeof s[k] === 'object') out.push(...parts(s[k] as Schema, root));
  return out;
}

/**
 * Reports every property that the schema does not name (`ckpt validate --strict`). Properties covered by
 * `patternProperties`, or by an `additionalProperties` schema (a map such as `units`), are named.
 */
export function unknownFields(
  schema: JsonSchema,
  value: unknown,
  file: string,
  sourceMap: SourceMap,
): Finding[] {
  const root = schema as Schema;
  const out: Finding[] = [];
  const walk = (s: Schema, v: unknown, pointer: string, depth: number) => {
    if (depth > 64 || v === null || typeof v !== 'object') return;
    const ps = parts(s, root);
    if (Array.isArray(v)) {
      const items = ps.map((p) => p.items).filter((i): i is Schema => !!i && typeof i === 'object');
      v.forEach((item, i) => items.forEach((it) => walk(it, item, `${pointer}/${i}`, depth + 1)));
      return;
    }
    for (const key of Object.keys(v)) {
      const child = `${pointer}/${escapePointerToken(key)}`;
      const val = (v as Record<string, unknown>)[key];
      let named = false;
      for (const p of ps) {
        const props = p.properties as Record<string, Schema> | undefined;
        if (props && Object.hasOwn(props, key)) {
          named = true;
          walk(props[key]!, val, child, depth + 1);
        }
        const patterns = p.patternProperties as Record<string, Schema> | undefined;
        for (const [re, sub] of Object.entries(patterns ?? {})) {
          if (new RegExp(re, 'u').test(key)) {
            named = true;
            walk(sub, val, child, depth + 1);
          }
        }
      }
      // A document may name the schema it was written against (schemas/VERSIONING.md).
      if (pointer === '' && key === '$schema') named = true;
      if (!named) {
        const extra = ps
          .map((p) => p.additionalProperties)
          .find((a): a is Schema => !!a && typeof a === 'object');
        if (extra) walk(extra, val, child, depth + 1);
        else if (ps.some((p) => p.properties || p.patternProperties)) {
          out.push(
            findingAt(file, sourceMap.locate(child, 'key'), {
              code: 'schema/unknown-field',
              severity: 'error',
              pointer: child,
              message: `unknown field "${child.slice(1).replace(/\//g, '.')}" (not named by the schema; reported under --strict)`,
            }),
          );
        }
      }
    }
  };
  walk(root, value, '', 0);
  return out;
}
