import type { Command } from 'commander';

/** `ckpt ulpi <verb>` and `ckpt migrate`. */
export function registerUlpiCommands(_program: Command): void {}
