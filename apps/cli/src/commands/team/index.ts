import type { Command } from 'commander';

/** `ckpt team <verb>`. */
export function registerTeamCommands(_program: Command): void {}
