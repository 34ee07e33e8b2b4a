import { Command, CommanderError } from 'commander';
import { examples } from './commands/help.js';
import { registerCommands } from './commands/index.js';
import { exitCodeFor } from './exit-code.js';
import { takeMaxFileSize } from './max-file-size.js';
import { ownUsageExitCodes } from './usage-error.js';
import { toolVersion } from './version.js';

/** Builds the `ckpt` program with every command registered. */
export function buildProgram(): Command {
  const program = new Command('ckpt')
    .description('Validate, inspect, resume and write the checkpoint files of resumable AI-agent runs.')
    .version(toolVersion(), '-V, --version', 'print the version')
    // Taken from the arguments by main before any command parses them (max-file-size.ts); listed for --help.
    .option(
      '--max-file-size <size>',
      'read no checkpoint file bigger than this: bytes or 64MiB (default 64 MiB; env CKPT_MAX_FILE_SIZE)',
    )
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      examples([
        'ckpt validate',
        'ckpt status test-fixtures/sample-project',
        'ckpt resume --run add-oauth',
        'ckpt <command> --help',
      ]),
    )
    .exitOverride()
    // Commander's own message is reworded in main's catch (one style for every error), so it is not written here.
    .configureOutput({
      outputError: (str) => {
        commanderMessage = str;
      },
    });
  registerCommands(program);
  for (const cmd of program.commands) if (!ownUsageExitCodes.has(cmd)) cmd.exitOverride();
  markRequired(program);
  return program;
}

let commanderMessage = '';

/** Every required option says so in its help line, whichever way its command declared it. */
function markRequired(cmd: Command): void {
  for (const o of cmd.options)
    if (o.mandatory && !o.description.includes('(required)')) o.description = `${o.description} (required)`;
  for (const sub of cmd.commands) markRequired(sub);
}

/** The command an argv names: the longest run of leading words that are subcommands (`['team', 'start-run']`). */
export function commandPath(program: Command, words: readonly string[]): string[] {
  const path: string[] = [];
  let cmd = program;
  for (const w of words) {
    const next = cmd.commands.find((c) => c.name() === w || c.aliases().includes(w));
    if (!next) break;
    path.push(w);
    cmd = next;
  }
  return path;
}

/**
 * A commander usage error in ckpt's style: `ckpt: <command>: <why>` and a hint line (commander's suggestion when
 * it has one, else where the usage is).
 */
function usageMessage(raw: string, path: readonly string[]): string {
  const [first = '', ...rest] = raw.trim().split('\n');
  const why = first.replace(/^error: /, '');
  const suggestion = rest
    .join(' ')
    .trim()
    .replace(/^\((.*)\)$/, '$1');
  const help = `ckpt ${[...path, '--help'].join(' ')}`;
  const hint = suggestion
    ? `${suggestion.charAt(0).toLowerCase()}${suggestion.slice(1)} (\`${help}\` shows the usage)`
    : `\`${help}\` shows the usage`;
  return `ckpt: ${path.length > 0 ? `${path.join(' ')}: ` : ''}${why}\nhint: ${hint}\n`;
}

/** Runs the CLI. The one catch: every error becomes a one-line message and an exit code, never a stack trace. */
export async function main(rawArgv: readonly string[]): Promise<number> {
  process.exitCode = 0;
  let program: Command | undefined;
  let argv = rawArgv;
  try {
    argv = [...rawArgv.slice(0, 2), ...takeMaxFileSize(rawArgv.slice(2))];
    // `ckpt ulpi` reads its words as the original checkpoint.mjs does (commander only shows its help pages).
    if (argv[2] === 'ulpi') {
      const { isUlpiHelpRequest } = await import('./commands/ulpi/argv.js');
      if (!isUlpiHelpRequest(argv.slice(3)))
        return (await import('./commands/ulpi/run.js')).runUlpiArgv(argv.slice(3));
    }
    commanderMessage = '';
    program = buildProgram();
    await program.parseAsync(argv as string[]);
    return Number(process.exitCode ?? 0);
  } catch (e) {
    if (e instanceof CommanderError) {
      if (
        e.code === 'commander.helpDisplayed' ||
        e.code === 'commander.version' ||
        e.code === 'commander.help'
      )
        return 0;
      if (commanderMessage && program) {
        // Commander quotes the words it refused: an argument's control characters are shown, not sent.
        // A word with a line break would split the message into lines the word chose: each such word is escaped
        // whole (`\n` shown) before the message is cut into its reason and hint lines.
        const { escapeTerminal, escapeTerminalLines } = await import('@ckpt/core');
        let said = commanderMessage;
        for (const w of argv.slice(2))
          if (w !== escapeTerminal(w) && said.includes(w)) said = said.split(w).join(escapeTerminal(w));
        process.stderr.write(escapeTerminalLines(usageMessage(said, commandPath(program, argv.slice(2)))));
      }
      return 2;
    }
    return exitCodeFor(e);
  }
}
