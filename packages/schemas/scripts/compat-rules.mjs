// Compares two versions of one JSON Schema and lists every change with whether it is compatible: a change is
// compatible when every document the old schema accepts is still accepted by the new one (see schemas/VERSIONING.md).

const DOC_KEYS = new Set(['description', 'title', 'examples', '$comment', 'deprecated', 'default']);
const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SUBSCHEMAS = ['items', 'contains', 'propertyNames', 'if', 'then', 'else', 'not'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];
const HANDLED = new Set([
  ...DOC_KEYS,
  ...LOWER_BOUNDS,
  ...UPPER_BOUNDS,
  ...SUBSCHEMA_MAPS,
  ...SUBSCHEMAS,
  ...SUBSCHEMA_LISTS,
  'required',
  'enum',
  'const',
  'type',
  'pattern',
  'format',
  'additionalProperties',
  '$ref',
  '$id',
  '$schema',
  'uniqueItems',
  'multipleOf',
]);

const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const types = (s) => (s.type === undefined ? undefined : [s.type].flat());
/** `additionalProperties` as a reader sees it: absent means true. */
const additional = (s) => (s.additionalProperties === undefined ? true : s.additionalProperties);

/**
 * Lists the changes between `before` and `after` of one schema.
 * @returns {{ path: string, change: string, compatible: boolean }[]}
 */
export function compareSchemas(before, after, path = '') {
  const out = [];
  const add = (change, compatible, at = path) => out.push({ path: at || '/', change, compatible });
  if (typeof before === 'boolean' || typeof after === 'boolean') {
    if (before !== after)
      add(`schema changed from ${JSON.stringify(before)} to ${JSON.stringify(after)}`, after === true);
    return out;
  }
  if (!isObj(before) || !isObj(after)) return out;

  for (const name of after.required ?? [])
    if (!(before.required ?? []).includes(name)) add(`added required property "${name}"`, false);
  for (const name of before.required ?? [])
    if (!(after.required ?? []).includes(name)) add(`property "${name}" is no longer required`, true);

  if (before.enum !== undefined || after.enum !== undefined) {
    if (after.enum === undefined) add('removed the enum restriction', true);
    else if (before.enum === undefined) add('added an enum restriction', false);
    else {
      for (const v of before.enum)
        if (!after.enum.some((w) => same(v, w))) add(`removed enum value ${JSON.stringify(v)}`, false);
      for (const v of after.enum)
        if (!before.enum.some((w) => same(v, w))) add(`added enum value ${JSON.stringify(v)}`, true);
    }
  }
  if (!same(before.const, after.const))
    add(
      `const changed from ${JSON.stringify(before.const)} to ${JSON.stringify(after.const)}`,
      after.const === undefined,
    );

  const tb = types(before);
  const ta = types(after);
  if (!same(tb, ta)) {
    const widened =
      ta === undefined || tb?.every((t) => ta.includes(t) || (t === 'integer' && ta.includes('number')));
    add(`type changed from ${JSON.stringify(before.type)} to ${JSON.stringify(after.type)}`, widened);
  }

  if (before.pattern !== after.pattern) {
    if (after.pattern === undefined) add('removed the pattern', true);
    else if (before.pattern === undefined) add(`added pattern ${after.pattern}`, false);
    // Whether one regex accepts all another does is undecidable in general: any edit counts as tightening.
    else add(`changed pattern from ${before.pattern} to ${after.pattern}`, false);
  }
  if (before.format !== after.format)
    add(
      `format changed from ${before.format ?? '(none)'} to ${after.format ?? '(none)'}`,
      after.format === undefined,
    );

  for (const key of LOWER_BOUNDS)
    if (before[key] !== after[key]) {
      const loosened = after[key] === undefined || (before[key] !== undefined && after[key] < before[key]);
      add(`${key} changed from ${before[key] ?? '(none)'} to ${after[key] ?? '(none)'}`, loosened);
    }
  for (const key of UPPER_BOUNDS)
    if (before[key] !== after[key]) {
      const loosened = after[key] === undefined || (before[key] !== undefined && after[key] > before[key]);
      add(`${key} changed from ${before[key] ?? '(none)'} to ${after[key] ?? '(none)'}`, loosened);
    }
  for (const key of ['uniqueItems', 'multipleOf'])
    if (!same(before[key], after[key]))
      add(`${key} changed`, after[key] === undefined || after[key] === false);

  const ab = additional(before);
  const aa = additional(after);
  if (typeof ab === 'boolean' || typeof aa === 'boolean') {
    // Both directions break someone: false→true lets new writers produce what old strict readers reject.
    if (!same(ab, aa))
      add(`additionalProperties flipped from ${JSON.stringify(ab)} to ${JSON.stringify(aa)}`, false);
  } else out.push(...compareSchemas(ab, aa, `${path}/additionalProperties`));

  if (before.$ref !== after.$ref)
    add(`$ref changed from ${before.$ref ?? '(none)'} to ${after.$ref ?? '(none)'}`, false);

  for (const map of SUBSCHEMA_MAPS) {
    const b = before[map] ?? {};
    const a = after[map] ?? {};
    for (const k of Object.keys(b)) {
      const at = `${path}/${map}/${k}`;
      if (!(k in a)) add(`removed ${map === 'properties' ? 'property' : map} "${k}"`, false, at);
      else out.push(...compareSchemas(b[k], a[k], at));
    }
    for (const k of Object.keys(a))
      if (!(k in b)) {
        const required = map === 'properties' && (after.required ?? []).includes(k);
        // A new required property is reported by the `required` check above.
        if (!required)
          add(
            `added ${map === 'properties' ? 'optional property' : map} "${k}"`,
            map !== 'patternProperties' || aa !== false,
            `${path}/${map}/${k}`,
          );
      }
  }
  for (const key of SUBSCHEMAS) {
    if (before[key] === undefined && after[key] === undefined) continue;
    if (before[key] === undefined) add(`added ${key}`, false);
    else if (after[key] === undefined) add(`removed ${key}`, key !== 'if');
    else out.push(...compareSchemas(before[key], after[key], `${path}/${key}`));
  }
  for (const key of SUBSCHEMA_LISTS) {
    const b = before[key] ?? [];
    const a = after[key] ?? [];
    // A new anyOf still accepts every old document when one of its branches alone accepts all the old schema did.
    const covered =
      key === 'anyOf' &&
      b.length === 0 &&
      a.some((branch) => compareSchemas(before, branch).every((c) => c.compatible));
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= b.length) add(`added ${key}[${i}]`, (key === 'anyOf' && b.length > 0) || covered);
      else if (i >= a.length) add(`removed ${key}[${i}]`, key === 'allOf');
      else out.push(...compareSchemas(b[i], a[i], `${path}/${key}/${i}`));
    }
  }
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)]))
    if (!HANDLED.has(k) && !same(before[k], after[k])) add(`keyword ${k} changed`, false);
  return out;
}

/** `https://ckpt.dev/schemas/team/run/1.2.json` → `{ major: 1, minor: 2 }`. */
export function versionOf(id) {
  const m = /\/(\d+)\.(\d+)\.json$/.exec(id ?? '');
  return m ? { major: Number(m[1]), minor: Number(m[2]) } : undefined;
}

/**
 * Judges one kind: its changes since the released schema, against the version its `$id` now carries.
 * @returns {string[]} problems; empty when the change is allowed
 */
export function judge(kind, released, current) {
  const was = versionOf(released.$id);
  const now = versionOf(current.$id);
  if (!now) return [`${kind}: $id ${current.$id} carries no <major>.<minor> version`];
  if (!was) return [];
  const changes = compareSchemas(released, current);
  const breaking = changes.filter((c) => !c.compatible);
  const v = (x) => `${x.major}.${x.minor}`;
  if (now.major < was.major || (now.major === was.major && now.minor < was.minor))
    return [`${kind}: version went down from ${v(was)} to ${v(now)}`];
  if (now.major > was.major) return [];
  if (breaking.length > 0)
    return breaking.map(
      (c) =>
        `${kind}: incompatible change at ${c.path}: ${c.change} (needs a major version, ${was.major + 1}.0, in $id)`,
    );
  if (changes.length > 0 && now.minor === was.minor)
    return changes.map(
      (c) =>
        `${kind}: change at ${c.path}: ${c.change} (compatible, but needs a minor version, ${was.major}.${was.minor + 1}, in $id)`,
    );
  return [];
}
