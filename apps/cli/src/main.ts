import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands/index.js';
import { exitCodeFor } from './exit-code.js';
import { ownUsageExitCodes } from './usage-error.js';
import { toolVersion } from './version.js';

/** Builds the `ckpt` program with every command registered. */
export function buildProgram(): Command {
  const program = new Command('ckpt')
    .description('Validate, inspect, resume and write the checkpoint files of resumable AI-agent runs.')
    .version(toolVersion(), '-V, --version', 'print the version')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ outputError: (str, write) => write(str.startsWith('error:') ? `ckpt: ${str}` : str) });
  registerCommands(program);
  for (const cmd of program.commands) if (!ownUsageExitCodes.has(cmd)) cmd.exitOverride();
  return program;
}

/** Runs the CLI. The one catch: every error becomes a one-line message and an exit code, never a stack trace. */
export async function main(argv: readonly string[]): Promise<number> {
  process.exitCode = 0;
  try {
    // `ckpt ulpi` reads its words as the original checkpoint.mjs does (commander only shows its help pages).
    if (argv[2] === 'ulpi') {
      const { isUlpiHelpRequest } = await import('./commands/ulpi/argv.js');
      if (!isUlpiHelpRequest(argv.slice(3)))
        return (await import('./commands/ulpi/run.js')).runUlpiArgv(argv.slice(3));
    }
    await buildProgram().parseAsync(argv as string[]);
    return Number(process.exitCode ?? 0);
  } catch (e) {
    if (e instanceof CommanderError) {
      if (
        e.code === 'commander.helpDisplayed' ||
        e.code === 'commander.version' ||
        e.code === 'commander.help'
      )
        return 0;
      return 2;
    }
    return exitCodeFor(e);
  }
}
