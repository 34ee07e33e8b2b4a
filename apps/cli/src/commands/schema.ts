import { loadCatalog, schemaFor } from '@ckpt/core';
import type { Command } from 'commander';
import { UsageError } from '../usage-error.js';
import { examples } from './help.js';

function allKinds(): string[] {
  return loadCatalog().schemas.flatMap((e) => e.kinds ?? [e.kind]);
}

/** Accepts `team/run`, `team.run`, or a kind name that only one dialect has (`run`). */
export function resolveKind(name: string): string {
  const kinds = allKinds();
  const norm = name.replace('.', '/');
  if (kinds.includes(norm)) return norm;
  const bySuffix = kinds.filter((k) => k.endsWith(`/${norm}`));
  if (bySuffix.length === 1) return bySuffix[0]!;
  const hint = bySuffix.length > 1 ? `; it is ambiguous: ${bySuffix.join(', ')}` : '';
  throw new UsageError(`unknown kind "${name}"${hint}. Run \`ckpt schema list\` for every kind.`);
}

export function registerSchema(program: Command): void {
  const schema = program
    .command('schema')
    .description('list the document kinds, or print the JSON Schema of one')
    .addHelpText('after', examples(['ckpt schema list', 'ckpt schema show team/task-event']));
  schema
    .command('list')
    .description('print the catalog: every document kind with its file patterns and schema $id')
    .option('--json', 'print the catalog as JSON')
    .action((opts: { json?: boolean }) => {
      const catalog = loadCatalog();
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(catalog, null, 2)}\n`);
        return;
      }
      const rows = catalog.schemas.flatMap((e) =>
        (e.kinds ?? [e.kind]).map((k) => [k, e.fileMatch.join(' '), e.format]),
      );
      const w0 = Math.max(4, ...rows.map((r) => r[0]!.length));
      const w1 = Math.max(5, ...rows.map((r) => r[1]!.length));
      process.stdout.write(`${'KIND'.padEnd(w0)}  ${'FILES'.padEnd(w1)}  FORMAT\n`);
      for (const r of rows) process.stdout.write(`${r[0]!.padEnd(w0)}  ${r[1]!.padEnd(w1)}  ${r[2]}\n`);
    })
    .addHelpText('after', examples(['ckpt schema list', 'ckpt schema list --json']));
  schema
    .command('show')
    .description('print the JSON Schema (draft 2020-12) of one document kind')
    .argument('<kind>', 'a kind such as team/task-event (see `ckpt schema list`)')
    .action((kind: string) => {
      process.stdout.write(`${JSON.stringify(schemaFor(resolveKind(kind)), null, 2)}\n`);
    })
    .addHelpText(
      'after',
      examples(['ckpt schema show team/task-event', 'ckpt schema show ulpi/status-v2 > status.schema.json']),
    );
}
