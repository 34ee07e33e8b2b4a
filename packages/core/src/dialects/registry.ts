import { agentContextDialect } from './agent-context/index.js';
import type { Dialect, DialectId } from './dialect.js';
import { resumableDialect } from './resumable/index.js';
import { teamDialect } from './team/index.js';
import { ulpiDialect } from './ulpi/index.js';

/** Every dialect ckpt knows, in display order. */
export const dialects: readonly Dialect[] = [teamDialect, resumableDialect, ulpiDialect, agentContextDialect];

export const dialectIds: readonly DialectId[] = dialects.map((d) => d.id);

export function getDialect(id: string): Dialect | undefined {
  return dialects.find((d) => d.id === id);
}

export function isDialectId(id: string): id is DialectId {
  return dialectIds.includes(id as DialectId);
}
