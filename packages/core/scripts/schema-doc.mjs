// Renders one JSON Schema as Markdown: a fields table (nested objects flattened to dotted paths), then a
// section for each named type under $defs, with a values table for every enum.

const cell = (s) =>
  String(s ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n+/g, ' ');
const code = (s) => `\`${String(s).replace(/`/g, "'")}\``;
export const anchor = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');

/** The `$defs` name of a local `$ref`. */
const refName = (ref) => (ref?.startsWith('#/$defs/') ? ref.slice('#/$defs/'.length) : undefined);

/** A short type text: `string (date-time)`, `integer ≥ 1`, `[TaskStatus](#…)`, `array of string`. */
export function typeText(node, link) {
  if (node === true) return 'any';
  if (node === false) return 'nothing';
  const parts = [];
  const ref = refName(node.$ref);
  if (ref) parts.push(`[${ref}](#${link(ref)})`);
  if (node.const !== undefined) parts.push(`${code(JSON.stringify(node.const))} (constant)`);
  if (node.enum)
    parts.push(
      `one of ${node.enum.map((v) => code(typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`,
    );
  if (node.type) {
    const t = [node.type].flat().join(' or ');
    parts.push(t === 'array' && node.items ? `array of ${typeText(node.items, link)}` : t);
  } else if (node.items) parts.push(`array of ${typeText(node.items, link)}`);
  for (const k of ['anyOf', 'oneOf'])
    if (node[k]) parts.push(node[k].map((s) => typeText(s, link)).join(' or '));
  if (node.format) parts.push(`format ${code(node.format)}`);
  if (node.pattern) parts.push(`pattern ${code(node.pattern)}`);
  const bounds = [
    ['minimum', '≥'],
    ['exclusiveMinimum', '>'],
    ['maximum', '≤'],
    ['exclusiveMaximum', '<'],
    ['minLength', 'length ≥'],
    ['maxLength', 'length ≤'],
    ['minItems', 'items ≥'],
    ['maxItems', 'items ≤'],
  ];
  for (const [k, sym] of bounds) if (node[k] !== undefined) parts.push(`${sym} ${node[k]}`);
  return parts.join(', ') || 'any';
}

/** Flattens an object schema into rows `{ path, node, required }`, descending into inline objects and items. */
export function fieldRows(node, prefix = '', required = []) {
  const rows = [];
  if (!node || typeof node !== 'object') return rows;
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const path = `${prefix}${name}`;
    rows.push({ path, node: child, required: required.includes(name) });
    rows.push(...descend(child, path));
  }
  for (const [pattern, child] of Object.entries(node.patternProperties ?? {})) {
    const path = `${prefix}<${pattern}>`;
    rows.push({ path, node: child, required: false, note: 'any key matching the pattern' });
    rows.push(...descend(child, path));
  }
  if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    const path = `${prefix}<key>`;
    rows.push({ path, node: node.additionalProperties, required: false, note: 'any other key' });
    rows.push(...descend(node.additionalProperties, path));
  }
  return rows;
}

function descend(child, path) {
  if (child?.properties || child?.patternProperties)
    return fieldRows(child, `${path}.`, child.required ?? []);
  if (child?.items?.properties) return fieldRows(child.items, `${path}[].`, child.items.required ?? []);
  return [];
}

/** What the description says about one enum value: `value` (text), `value: text`, or the clause naming it. */
export function meaningOf(value, ...descriptions) {
  const v = String(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const d of descriptions.filter(Boolean)) {
    const patterns = [
      new RegExp(`\`${v}\`\\s*\\(([^)]+)\\)`),
      new RegExp(`(?:^|[\\s;,(])\`?${v}\`?\\s*:\\s*([^;.]+)`),
      new RegExp(`\`${v}\`\\s+([^;.,]+)`),
    ];
    for (const p of patterns) {
      const m = p.exec(d);
      if (m) return m[1].trim();
    }
  }
  return '';
}

function enumTable(node, ...descriptions) {
  const rows = node.enum.map(
    (v) =>
      `| ${code(typeof v === 'string' ? v : JSON.stringify(v))} | ${cell(meaningOf(v, node.description, ...descriptions))} |`,
  );
  return ['| value | meaning |', '|---|---|', ...rows].join('\n');
}

function fieldsTable(rows, link) {
  if (rows.length === 0) return '_No named fields._';
  const out = ['| field | type | required | description |', '|---|---|---|---|'];
  for (const r of rows) {
    const desc = [r.node?.description, r.note && `(${r.note})`].filter(Boolean).join(' ');
    out.push(
      `| ${code(r.path)} | ${cell(typeText(r.node, link))} | ${r.required ? 'yes' : 'no'} | ${cell(desc)} |`,
    );
  }
  return out.join('\n');
}

/** The Markdown body of one schema: fields, enums of fields, named types. `slug` prefixes the anchors. */
export function renderSchema(schema, slug) {
  const link = (name) => anchor(`${slug} ${name}`);
  const out = [];
  const rows = fieldRows(schema, '', schema.required ?? []);
  const open =
    schema.additionalProperties === false
      ? 'no: any other field is an error'
      : 'yes: reported only with `ckpt validate --strict`';
  out.push('#### Fields', '', fieldsTable(rows, link), '', `Unknown fields allowed: ${open}.`, '');
  for (const r of rows.filter((x) => x.node?.enum))
    out.push(`**Values of ${code(r.path)}**`, '', enumTable(r.node), '');
  for (const [name, def] of Object.entries(schema.$defs ?? {})) {
    out.push(`<a id="${link(name)}"></a>`, '', `#### ${name}`, '', cell(def.description ?? ''), '');
    if (def.enum)
      out.push(
        enumTable(def, ...rows.filter((r) => refName(r.node?.$ref) === name).map((r) => r.node.description)),
        '',
      );
    else if (def.properties || def.patternProperties) {
      const defRows = fieldRows(def, '', def.required ?? []);
      out.push(fieldsTable(defRows, link), '');
      for (const r of defRows.filter((x) => x.node?.enum))
        out.push(`**Values of ${code(`${name}.${r.path}`)}**`, '', enumTable(r.node), '');
    } else out.push(`Type: ${typeText(def, link)}`, '');
  }
  return out.join('\n');
}
