import type { Command } from 'commander';

/** `ckpt resumable <verb>`. */
export function registerResumableCommands(_program: Command): void {}
