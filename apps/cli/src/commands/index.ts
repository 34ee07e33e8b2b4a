import type { Command } from 'commander';
import { registerSchema } from './schema.js';
import { registerValidate } from './validate-command.js';

/** Registers every command; each command's implementation is imported only when it runs. */
export function registerCommands(program: Command): void {
  registerValidate(program);
  registerSchema(program);
}
