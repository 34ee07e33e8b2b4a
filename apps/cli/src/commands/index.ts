import type { Command } from 'commander';
import { registerAgentContextCommands } from './agent-context/index.js';
import { registerResumableCommands } from './resumable/index.js';
import { registerRunCommands } from './runs/index.js';
import { registerSchema } from './schema.js';
import { registerTeamCommands } from './team/index.js';
import { registerToolCommands } from './tools/index.js';
import { registerUlpiCommands } from './ulpi/index.js';
import { registerValidate } from './validate-command.js';

/** Registers every command; each command's implementation is imported only when it runs. */
export function registerCommands(program: Command): void {
  registerValidate(program);
  registerRunCommands(program);
  registerSchema(program);
  registerTeamCommands(program);
  registerUlpiCommands(program);
  registerAgentContextCommands(program);
  registerResumableCommands(program);
  registerToolCommands(program);
}
