// The layout proof of a kind (build-assets.mjs appends its maker to the kind's precompiled validator as
// `makeLayoutProof`, which builds nothing until called): `makeLayoutProof()(text)` returns JSON.parse(text) when the
// text is proved a valid document of the kind, else undefined.
// Core takes the proof instead of parsing with its duplicate-key and depth tally and running the validator
// (core's validate/layout-proof.ts); a text it does not prove takes that full path, which alone reports.
//
// The proof: one native regular-expression test of the layout real writers produce (`JSON.stringify(value, null,
// 2)`: a flat object whose members come in the schema's `properties` order, strings without escapes, integers of at
// most 15 digits), then JSON.parse, then the checks a layout cannot make on the value, each as ajv's code makes it
// (`format` with the validators' own formats table, called as ajv calls it; `pattern` compiled with ajv's `u` flag;
// `minLength`/`maxLength` in code points with the validators' own string length; `minimum`/`maximum`).
// What a proved text is, by construction: valid JSON without a duplicate key (each member named once, in a fixed
// order), nesting two levels at most, no number beyond a double's range, every required member present, every member
// one the schema names (`--strict` finds no unknown field), every value of its member's type and within its
// constraints. A schema using anything else (another keyword, a nested object, ...) gets no proof: undefined.

/** JSON's whitespace between tokens (not `\s`, which holds characters JSON.parse refuses). */
const WS = '[ \\t\\n\\r]*';
/** A JSON string whose text is its value: no escape, no control character. */
const STRING = '"[^"\\\\\\u0000-\\u001f]*"';
/** An integer JSON.parse reads exactly (15 digits are below 2^53). */
const INTEGER = '-?(?:0|[1-9][0-9]{0,14})';

/** Keywords that say nothing about validity. */
const ANNOTATIONS = new Set([
  'title',
  'description',
  '$comment',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
/** What a member's schema may use. */
const MEMBER_KEYWORDS = new Set([
  '$ref',
  'type',
  'enum',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'items',
]);
const ROOT_KEYWORDS = new Set([
  '$schema',
  '$id',
  '$defs',
  'type',
  'required',
  'properties',
  'additionalProperties',
]);

/** A name or enum value the layout can hold as it is: its JSON text is its value, with no escape. */
const plainText = (s) => typeof s === 'string' && !/["\\\u0000-\u001f]/.test(s);
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const isCount = (n) => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/**
 * The expression ajv's code tests a string format with (its `format` keyword: a function called, a RegExp tested,
 * `{ validate }` for strings and not async), the table's entry being `ref`; undefined for any other.
 */
function formatCall(f, ref, x) {
  if (typeof f === 'function') return `${ref}(${x})`;
  if (f instanceof RegExp) return `${ref}.test(${x})`;
  if (f === null || typeof f !== 'object') return undefined;
  if (f.async === true || (f.type !== undefined && f.type !== 'string')) return undefined;
  if (typeof f.validate === 'function') return `${ref}.validate(${x})`;
  if (f.validate instanceof RegExp) return `${ref}.validate.test(${x})`;
  return undefined;
}

/** The parts of a member's schema (it and what its `$ref`s name, all of which apply), or undefined. */
function partsOf(schema, root) {
  const out = [];
  let s = schema;
  for (let hops = 0; hops < 8; hops++) {
    if (s === null || typeof s !== 'object' || Array.isArray(s)) return undefined;
    for (const k of Object.keys(s)) if (!ANNOTATIONS.has(k) && !MEMBER_KEYWORDS.has(k)) return undefined;
    out.push(s);
    const ref = s.$ref;
    if (ref === undefined) return out;
    if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return undefined;
    const name = ref.slice('#/$defs/'.length);
    const defs = root.$defs;
    if (name.includes('/') || name.includes('~') || !defs || !Object.hasOwn(defs, name)) return undefined;
    s = defs[name];
  }
  return undefined;
}

/**
 * A member's layout (`text`, a regular expression) and the statements checking its value in `x` (an array's items
 * in `y`) that return undefined when it fails (`code`), or undefined when its schema uses what is not supported.
 * `c` collects the patterns the code tests (`p[i]`) and the number of strings it remembers (`m0`...).
 */
function memberOf(schema, c, x) {
  const parts = partsOf(schema, c.root);
  if (!parts) return undefined;
  let types;
  let enumValues;
  const strings = [];
  const numbers = [];
  let items;
  for (const p of parts) {
    if (p.type !== undefined) {
      const list = typeof p.type === 'string' ? [p.type] : p.type;
      if (!Array.isArray(list) || !list.every((t) => typeof t === 'string')) return undefined;
      const mine = new Set(list);
      types = types ? new Set([...types].filter((t) => mine.has(t))) : mine;
    }
    if (p.enum !== undefined) {
      if (enumValues || !Array.isArray(p.enum) || p.enum.length === 0 || !p.enum.every(plainText))
        return undefined;
      enumValues = p.enum;
    }
    if (p.format !== undefined) {
      const known = typeof p.format === 'string' && Object.hasOwn(c.formats, p.format);
      const call = known
        ? formatCall(c.formats[p.format], `f${c.formatNames.push(p.format) - 1}`, x)
        : undefined;
      if (call === undefined) return undefined;
      strings.push(`if (!${call}) return;`);
    }
    if (p.pattern !== undefined) {
      if (typeof p.pattern !== 'string') return undefined;
      new RegExp(p.pattern, 'u');
      // The last string that passed is kept: a run's events repeat their run id and paths, and a test without `g`
      // or `y` gives the same answer every time.
      const m = `m${c.memos++}`;
      strings.push(
        `if (${x} !== ${m}) { if (!p[${c.patterns.push(p.pattern) - 1}].test(${x})) return; ${m} = ${x}; }`,
      );
    }
    if (p.minLength !== undefined) {
      if (!isCount(p.minLength)) return undefined;
      // As the lean validators check `minLength: 1` (a string of code units has code points).
      if (p.minLength === 1) strings.push(`if (${x}.length < 1) return;`);
      else if (p.minLength > 1) strings.push(`if (n(${x}) < ${p.minLength}) return;`);
    }
    if (p.maxLength !== undefined) {
      if (!isCount(p.maxLength)) return undefined;
      strings.push(`if (n(${x}) > ${p.maxLength}) return;`);
    }
    for (const [bound, op] of [
      [p.minimum, '<'],
      [p.maximum, '>'],
    ]) {
      if (bound === undefined) continue;
      if (typeof bound !== 'number' || !Number.isFinite(bound)) return undefined;
      numbers.push(`if (${x} ${op} ${bound}) return;`);
    }
    if (p.items !== undefined) {
      if (items || x !== 'x') return undefined;
      items = memberOf(p.items, c, 'y');
      if (!items) return undefined;
    }
  }
  const texts = [];
  // The JSON types the layout admits: a check of one type's values needs no typeof when it admits that type only.
  const admitted = new Set();
  if (enumValues) {
    if (types && !types.has('string')) return undefined;
    texts.push(`"(?:${enumValues.map(escapeRegExp).join('|')})"`);
    admitted.add('string');
  } else {
    if (!types || types.size === 0) return undefined;
    for (const t of types) {
      if (t === 'string') texts.push(STRING);
      else if (t === 'integer') texts.push(INTEGER);
      else if (t === 'null') texts.push('null');
      else if (t === 'boolean') texts.push('(?:true|false)');
      else if (t === 'array' && items)
        texts.push(`\\[${WS}(?:${items.text}(?:${WS},${WS}${items.text})*)?${WS}\\]`);
      else return undefined;
      admitted.add(t === 'integer' ? 'number' : t);
    }
  }
  const only = admitted.size === 1;
  const guarded = (type, code) =>
    code.length === 0 || !admitted.has(type)
      ? ''
      : only
        ? code.join(' ')
        : `if (typeof ${x} === "${type}") { ${code.join(' ')} }`;
  let code = guarded('string', strings) + guarded('number', numbers);
  if (items?.code && admitted.has('array'))
    code += `${only ? '' : `if (Array.isArray(${x})) `}for (let i = 0; i < ${x}.length; i++) { y = ${x}[i]; ${items.code} }`;
  return { text: texts.length === 1 ? texts[0] : `(?:${texts.join('|')})`, code };
}

/**
 * The layout proof's CommonJS code for a schema (statements setting `module.exports.makeLayoutProof`), or undefined when
 * the schema uses anything not supported: a root object of `properties` and `required` (its first member in
 * `properties` order required), members of type string, integer, null, boolean or an array of such, with `enum`
 * (plain strings), `format` (an entry of `formats`, the table the validators check with), `pattern`, `minLength`,
 * `maxLength`, `minimum`, `maximum` and local `$ref`s. `formatsRequire` and `lengthRequire` are how the code
 * requires that table and the validators' string length.
 */
export function layoutProofCode(schema, formats, formatsRequire, lengthRequire) {
  for (const k of Object.keys(schema)) if (!ANNOTATIONS.has(k) && !ROOT_KEYWORDS.has(k)) return undefined;
  const type = Array.isArray(schema.type) && schema.type.length === 1 ? schema.type[0] : schema.type;
  const props = schema.properties;
  const required = schema.required ?? [];
  if (type !== 'object' || props === null || typeof props !== 'object' || Array.isArray(props))
    return undefined;
  if (schema.additionalProperties !== undefined && typeof schema.additionalProperties !== 'boolean')
    return undefined;
  if (!Array.isArray(required) || !required.every((r) => typeof r === 'string' && Object.hasOwn(props, r)))
    return undefined;
  const names = Object.keys(props);
  if (names.length === 0 || !required.includes(names[0])) return undefined;
  const c = { root: schema, formats, formatNames: [], patterns: [], memos: 0 };
  let text = `^${WS}\\{${WS}`;
  let code = '';
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    // A name of Object.prototype (`__proto__`, `constructor`) or `$schema` (the versioning policy's) is left to the
    // full path.
    if (!plainText(name) || name in Object.prototype || name === '$schema') return undefined;
    const m = memberOf(props[name], c, 'x');
    if (!m) return undefined;
    const member = `"${escapeRegExp(name)}"${WS}:${WS}${m.text}`;
    const needed = required.includes(name);
    if (i === 0) text += member;
    else text += needed ? `${WS},${WS}${member}` : `(?:${WS},${WS}${member})?`;
    if (m.code !== '')
      code += `      x = v[${JSON.stringify(name)}]; ${needed ? m.code : `if (x !== undefined) { ${m.code} }`}\n`;
  }
  text += `${WS}\\}${WS}$`;
  const memos = Array.from({ length: c.memos }, (_, i) => `m${i}`);
  return `;module.exports.makeLayoutProof = function makeLayoutProof() {
  const layout = new RegExp(${JSON.stringify(text)});
  const p = [${c.patterns.map((s) => `new RegExp(${JSON.stringify(s)}, "u")`).join(', ')}];
${c.formatNames.map((f, i) => `  const f${i} = ${formatsRequire}[${JSON.stringify(f)}];\n`).join('')}${
  code.includes('n(') ? `  const n = ${lengthRequire};\n` : ''
}${memos.length > 0 ? `  let ${memos.join(', ')};\n` : ''}
  return function layoutProof(t) {
    // Anything thrown (a backtracking stack overflowed by millions of array items) leaves the text unproved.
    try {
      if (!layout.test(t)) return;
      const v = JSON.parse(t);
      let x, y;
${code}      return v;
    } catch {
      return;
    }
  };
};
`;
}
