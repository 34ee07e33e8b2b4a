import type { Command } from 'commander';

/** `ckpt completion`, `ckpt doctor`. */
export function registerToolCommands(_program: Command): void {}
