import type { Command } from 'commander';

/** An option as completion scripts see it. */
export interface OptionNode {
  readonly long?: string;
  readonly short?: string;
  readonly description: string;
  /** True when the option takes a value (`--reporter <name>`). */
  readonly takesValue: boolean;
  readonly choices?: readonly string[];
}

/** One command of the tree: its path from the root (`['team', 'start-run']`), subcommands and options. */
export interface CommandNode {
  readonly path: readonly string[];
  readonly description: string;
  readonly subcommands: readonly CommandNode[];
  readonly options: readonly OptionNode[];
}

/**
 * The command tree of a commander program, read from the program itself so the completion scripts never lag
 * behind the commands (a command added tomorrow is completed tomorrow).
 */
export function commandTree(cmd: Command, path: readonly string[] = []): CommandNode {
  const options: OptionNode[] = cmd.options
    .filter((o) => !o.hidden)
    .map((o) => ({
      ...(o.long ? { long: o.long } : {}),
      ...(o.short ? { short: o.short } : {}),
      description: o.description,
      takesValue: o.required || o.optional,
      ...(o.argChoices ? { choices: o.argChoices } : {}),
    }));
  options.push({ long: '--help', short: '-h', description: 'display help', takesValue: false });
  return {
    path,
    description: cmd.description(),
    subcommands: cmd.commands
      .filter((c) => c.name() !== 'help' && !(c as unknown as { _hidden?: boolean })._hidden)
      .map((c) => commandTree(c, [...path, c.name()])),
    options,
  };
}

/** Every node of the tree, depth first, the root included. */
export function allNodes(node: CommandNode): CommandNode[] {
  return [node, ...node.subcommands.flatMap(allNodes)];
}

/** `/team/start-run`: the key completion scripts use for a command path (`''` for the root). */
export function pathKey(path: readonly string[]): string {
  return path.map((p) => `/${p}`).join('');
}

/** The flags of an option: `--reporter`, `-r`. */
export function flagsOf(o: OptionNode): string[] {
  return [o.long, o.short].filter((f): f is string => f !== undefined);
}
