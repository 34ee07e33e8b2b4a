import type { Dialect } from '../dialect.js';
import { ulpiCodes } from './codes.js';
import { checkUlpiEventLog, checkUlpiTree } from './event-log-rules.js';
import { findUlpiRunsDir, ulpiRootOf } from './load.js';
import { checkUlpiStatus, filterUlpiSchemaFindings } from './rules.js';
import { ulpiSpecSection } from './spec.js';
import { ulpiRunViews } from './view-runs.js';

/** The `ulpi` dialect: checkpoint-resume status documents under `.ulpi/runs/`. */
export const ulpiDialect: Dialect = {
  id: 'ulpi',
  title: 'checkpoint-resume status files',
  codes: ulpiCodes,
  specSection: ulpiSpecSection(),
  detectKind(value, candidates) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const v = (value as { schemaVersion?: unknown }).schemaVersion;
    // By path (`.ulpi/runs/*.json`) every object is a status document; by content alone (a file named outside
    // that folder) only one that has the status document's shape, so other tools' JSON is never claimed.
    const byPath = !candidates.includes('ulpi/event-log-line');
    const units = (value as { units?: unknown }).units;
    const shaped =
      units !== null &&
      typeof units === 'object' &&
      !Array.isArray(units) &&
      'id' in value &&
      'status' in value;
    if (!byPath && !shaped) return undefined;
    const kind = v === 1 || v === undefined ? 'ulpi/status-v1' : 'ulpi/status-v2';
    return candidates.includes(kind) ? kind : undefined;
  },
  checkDocument(doc) {
    if (doc.kind === 'ulpi/event-log-line') return checkUlpiEventLog(doc);
    if (doc.kind === 'ulpi/status-v1' || doc.kind === 'ulpi/status-v2') return checkUlpiStatus(doc);
    return [];
  },
  filterSchemaFindings: (schema, semantic) => filterUlpiSchemaFindings(schema, semantic),
  // The tree rule replays an event log from its text (a snapshot is compared by value).
  treeRecord: (doc) => ({
    value: doc.value,
    text: doc.kind === 'ulpi/event-log-line' ? doc.text : undefined,
  }),
  rootOf: (absPath, kind) => (kind?.startsWith('ulpi/') ? ulpiRootOf(absPath) : undefined),
  checkTree: (root, ctx) => checkUlpiTree(root, ctx),
  discover(projectDir) {
    const dir = findUlpiRunsDir(projectDir);
    return dir ? [dir] : [];
  },
  loadRunViews: (root, ctx) => ulpiRunViews(root, ctx),
};
