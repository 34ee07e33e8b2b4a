import type { Command } from 'commander';

/** `ckpt status`, `ckpt resume`, `ckpt list`, `ckpt view`. */
export function registerRunCommands(_program: Command): void {}
