// Renders schemas/<dialect>/README.md: every document kind of the dialect (fields, types, enums, an example that
// validates) and every semantic rule of its code table (severity, explanation, a bad and a good example).

import { excerpt } from './examples.mjs';
import { anchor, renderSchema } from './schema-doc.mjs';

const FENCE = { json: 'json', jsonl: 'jsonl', env: 'sh' };
const fenced = (text, lang) => {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}${lang}\n${text.replace(/\n$/, '')}\n${ticks}`;
};
const cell = (s) =>
  String(s ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n+/g, ' ');
const versionOf = (id) => /\/(\d+\.\d+)\.json$/.exec(id ?? '')?.[1] ?? '?';

/**
 * @param {{ dialect: { id: string, title: string, codes: Record<string, {severity: string, title: string, explanation: string}> },
 *   kinds: { kind: string, file: string, schema: object, entry: object | undefined }[],
 *   genericCodes: Record<string, {severity: string, title: string}>, examples: ReturnType<import('./examples.mjs').createExamples>,
 *   banner: string }} input
 */
export function renderSpecPage({ dialect, kinds, genericCodes, examples, banner }) {
  const out = [`<!-- ${banner} -->`, '', `# \`${dialect.id}\`: ${dialect.title}`, ''];
  out.push(
    `The documents of the \`${dialect.id}\` dialect, what each field means, and the rules \`ckpt validate\` checks`,
    'beyond the schemas. The schemas in this folder are the source of truth; how their versions move is in',
    '[../VERSIONING.md](../VERSIONING.md).',
    '',
    '| document | files | schema | version |',
    '|---|---|---|---|',
  );
  for (const k of kinds) {
    const files = k.entry ? k.entry.fileMatch.map((f) => `\`${f}\``).join(', ') : '(told apart by content)';
    out.push(
      `| [${k.schema.title}](#${anchor(k.kind)}) | ${files} | [\`${k.file}\`](${k.file}) | ${versionOf(k.schema.$id)} |`,
    );
  }
  out.push('');
  if (dialect.specSection) out.push(dialect.specSection, '');
  for (const k of kinds) {
    out.push(
      `## ${k.kind}`,
      '',
      k.schema.description ?? '',
      '',
      `Schema: [\`${k.file}\`](${k.file}), \`$id\` \`${k.schema.$id}\`.`,
      '',
    );
    out.push(renderSchema(k.schema, k.kind));
    const ex =
      k.schema.examples?.[0] !== undefined
        ? { text: `${JSON.stringify(k.schema.examples[0], null, 2)}\n`, source: 'the schema' }
        : examples.documentOf(k.kind);
    out.push('#### Example', '');
    if (ex)
      out.push(
        `A document that validates (from \`${ex.source}\`):`,
        '',
        fenced(ex.text, FENCE[k.entry?.format ?? 'json']),
        '',
      );
    else out.push('_No clean fixture of this kind yet._', '');
  }
  const codes = Object.entries(dialect.codes).sort(([a], [b]) => (a < b ? -1 : 1));
  out.push('## Semantic rules', '');
  if (codes.length === 0) out.push('_This dialect has no semantic rules yet._', '');
  else {
    out.push('What a schema cannot say. Each rule reports its code, at the file and line it is about.', '');
    out.push('| code | severity | meaning |', '|---|---|---|');
    for (const [c, info] of codes)
      out.push(`| [\`${c}\`](#${anchor(c)}) | ${info.severity} | ${cell(info.title)} |`);
    out.push('');
  }
  for (const [c, info] of codes) {
    out.push(`### ${c}`, '', `**${info.severity}**: ${info.title}`, '', info.explanation, '');
    const bad = examples.badOf(dialect.id, c);
    if (!bad) {
      out.push('_No fixture shows this rule yet._', '');
      continue;
    }
    const lang =
      bad.file.endsWith('.env') || bad.file.endsWith('.lock')
        ? 'sh'
        : bad.file.endsWith('.jsonl')
          ? 'jsonl'
          : 'json';
    out.push(
      `Bad (\`test-fixtures/${bad.case}\`): ${bad.description}`,
      '',
      `\`${bad.file}\`, line ${bad.line}:`,
      '',
      fenced(excerpt(bad.text, bad.line), lang),
      '',
    );
    const good = bad.kind ? examples.goodOf(dialect.id, bad.kind) : undefined;
    if (good)
      out.push(
        `Good (\`test-fixtures/${good.case}\`): ${good.description}`,
        '',
        `\`${good.file}\`:`,
        '',
        fenced(excerpt(good.text, 1, 0, 18), lang),
        '',
      );
  }
  out.push(
    '## Parse and schema findings',
    '',
    'Reported for every dialect before its rules run:',
    '',
    '| code | severity | meaning |',
    '|---|---|---|',
  );
  for (const [c, info] of Object.entries(genericCodes))
    out.push(`| \`${c}\` | ${info.severity} | ${cell(info.title)} |`);
  return `${out.join('\n')}\n`;
}
