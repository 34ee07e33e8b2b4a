// Renders .pre-commit-hooks.yaml from schemas/catalog.json: one hook for every checkpoint file and one per dialect,
// each selecting files by the catalog's own fileMatch patterns (as a Python regex, which pre-commit applies).
// The hooks are `language: script`: pre-commit runs scripts/pre-commit/ckpt from its clone of this repository,
// which runs the CLI committed in bundle/ with the Node on PATH. Nothing is installed, so no registry is needed
// (`language: node` would npm-install the repository, and a pnpm workspace root is not an installable package).
import { globToRegExp } from '../dist/index.js';

/** One regex over repo-relative paths matching any of the globs. */
export function filesRegex(globs) {
  const bodies = [...new Set(globs)].map((g) =>
    globToRegExp(g)
      .source.replace(/\\\//g, '/')
      .replace(/^\(\?:\^\|\/\)/, '')
      .replace(/\$$/, ''),
  );
  return `(?:^|/)(?:${bodies.join('|')})$`;
}

/** The hook's program, relative to the repository root (pre-commit's clone of it). */
export const HOOK_ENTRY = 'scripts/pre-commit/ckpt';

const yamlQuote = (s) => `'${s.replace(/'/g, "''")}'`;

export function renderHooks(catalog, dialectIds, banner) {
  const entries = catalog.schemas;
  const hooks = [
    {
      id: 'ckpt-validate',
      name: 'ckpt validate (all checkpoint files)',
      dialect: undefined,
      globs: entries.flatMap((e) => e.fileMatch),
    },
    ...dialectIds.map((d) => ({
      id: `ckpt-validate-${d}`,
      name: `ckpt validate (${d} checkpoint files)`,
      dialect: d,
      globs: entries
        .filter((e) => [e.kind, ...(e.kinds ?? [])].some((k) => k.startsWith(`${d}/`)))
        .flatMap((e) => e.fileMatch),
    })),
  ];
  const out = [banner.replace(/^/gm, '# ').replace(/# $/gm, '#'), ''];
  for (const h of hooks) {
    out.push(
      `- id: ${h.id}`,
      `  name: ${yamlQuote(h.name)}`,
      `  description: ${yamlQuote(`Validates ${h.dialect ? `${h.dialect} ` : ''}checkpoint files against their JSON Schemas and the dialect's semantic rules.`)}`,
      `  entry: ${HOOK_ENTRY} validate${h.dialect ? ` --dialect ${h.dialect}` : ''}`,
      '  language: script',
      `  files: ${yamlQuote(filesRegex(h.globs))}`,
      '  pass_filenames: true',
      // One process sees every staged file, so tree rules (duplicate events, stale approvals) see them together.
      '  require_serial: true',
      '  minimum_pre_commit_version: 3.0.0',
      '',
    );
  }
  return out.join('\n');
}
