import fc from 'fast-check';
import { FinalizeCommand } from './FinalizeCommand.js';
import { ResumeCommand } from './ResumeCommand.js';
import { UnitCommand } from './UnitCommand.js';

const unitIds = ['api', 'web', 'shared', 'docs'];
const unitStates = ['pending', 'in_progress', 'done', 'blocked', 'dep_blocked'];

/** Every ulpi verb of the model, with arbitrary arguments. */
export const ulpiCommands = [
  fc
    .tuple(fc.constantFrom(...unitIds), fc.constantFrom(...unitStates))
    .map(([u, s]) => new UnitCommand(u, s)),
  fc
    .constantFrom<'done' | 'needs_attention' | 'aborted'>('done', 'needs_attention', 'aborted')
    .map((s) => new FinalizeCommand(s)),
  fc.constant(new ResumeCommand()),
];
