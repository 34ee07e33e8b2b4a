import type { Dialect } from '../dialect.js';

/** The `ulpi` dialect: checkpoint-resume status documents under `.ulpi/runs/`. */
export const ulpiDialect: Dialect = {
  id: 'ulpi',
  title: 'checkpoint-resume status files',
  codes: {},
  detectKind(value, candidates) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const v = (value as { schemaVersion?: unknown }).schemaVersion;
    const kind = v === 1 || v === undefined ? 'ulpi/status-v1' : 'ulpi/status-v2';
    return candidates.includes(kind) ? kind : undefined;
  },
};
