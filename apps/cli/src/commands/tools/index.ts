import { Argument, type Command, Option } from 'commander';
import { examples } from '../help.js';

/** `ckpt completion`, `ckpt doctor`. */
export function registerToolCommands(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script')
    .addArgument(new Argument('<shell>', 'the shell to complete for').choices(['bash', 'zsh', 'fish']))
    .action(async (shell: string) => {
      const { completionScript } = await import('./completion.js');
      process.stdout.write(completionScript(program, shell as 'bash' | 'zsh' | 'fish'));
    })
    .addHelpText(
      'after',
      examples([
        'source <(ckpt completion bash)',
        'ckpt completion bash > ~/.local/share/bash-completion/completions/ckpt',
        'ckpt completion zsh > ~/.zsh/completions/_ckpt',
        'ckpt completion fish > ~/.config/fish/completions/ckpt.fish',
      ]),
    );

  program
    .command('doctor')
    .description(
      'check the environment and the checkpoint trees under a directory: Node version, runs found, unreadable files, stale locks, leftover temp files',
    )
    .argument('[dir]', 'directory to look in', '.')
    .option('--json', 'print the report as JSON')
    .addOption(new Option('--stale-after <minutes>', 'a lock older than this is stale').default('60'))
    .action(async (dir: string, flags: { json?: boolean; staleAfter: string }) => {
      const { runDoctor } = await import('./doctor.js');
      process.exitCode = runDoctor(dir, flags);
    })
    .addHelpText(
      'after',
      `
Exit codes: 0 nothing to do, 1 something needs attention, 2 usage error, 3 the directory cannot be read.
${examples(['ckpt doctor', 'ckpt doctor path/to/project --json', 'ckpt doctor --stale-after 5'])}`,
    );
}
