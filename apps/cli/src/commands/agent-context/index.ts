import type { Command } from 'commander';

/** `ckpt agent-context <verb>`. */
export function registerAgentContextCommands(_program: Command): void {}
