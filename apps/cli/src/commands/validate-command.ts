import { type Command, Option } from 'commander';
import { examples } from './help.js';

export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('check checkpoint files against their schemas and their dialect rules')
    .argument(
      '[paths...]',
      'files, directories (searched recursively) or globs; default: the current directory',
    )
    .addOption(
      new Option(
        '-r, --reporter <name>',
        'output format (github is the default when GITHUB_ACTIONS=true)',
      ).choices(['text', 'json', 'github', 'junit', 'sarif']),
    )
    .addOption(
      new Option(
        '-d, --dialect <dialect>',
        'only files of this dialect (by its catalog patterns); a file named explicitly is read as this dialect',
      ).choices(['team', 'resumable', 'ulpi', 'agent-context']),
    )
    .option('--strict', 'also report fields that the schemas do not name')
    .option('-q, --quiet', 'print only errors')
    .addOption(
      new Option('--color <when>', 'colour output').choices(['auto', 'always', 'never']).default('auto'),
    )
    .action(async (paths: string[], flags) => {
      const { runValidate } = await import('./validate.js');
      process.exitCode = await runValidate(paths, flags);
    })
    .addHelpText(
      'after',
      `
Exit codes: 0 valid, 1 findings of error severity, 2 usage error, 3 unreadable input.
${examples([
  'ckpt validate',
  'ckpt validate .team/runs .ulpi/runs --strict',
  "ckpt validate '**/.agent-context/**/*.json' --reporter json",
  'ckpt validate . --reporter sarif > ckpt.sarif',
  'ckpt validate reports/ --dialect resumable --quiet',
])}`,
    );
}
