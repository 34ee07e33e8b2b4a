import type { PoolTask } from '../pool/pool.js';
import { type CheckOptions, checkEntry, formatOf, pickEntry } from './check-document.js';
import type { FileRef } from './collect-files.js';
import { type DocRecord, recordOf, type SentRecord, sentRecordOf } from './records.js';

/** The per-file pass's input, flat so that it is cheap to copy to a worker: one string per column. */
export interface ValidateTaskInput {
  /** Absolute paths, one per line. */
  readonly paths: string;
  /** Display paths, one per line. */
  readonly files: string;
  /** '1' for a file named explicitly, '0' for one found in a folder, one character per file. */
  readonly explicit: string;
  readonly strict: boolean;
  readonly dialect: string | undefined;
  /** True in a worker thread: records are then sent (`SentRecord`), never kept whole. */
  readonly sendable: boolean;
}

export function validateTaskInput(
  refs: readonly FileRef[],
  opts: CheckOptions,
  sendable: boolean,
): ValidateTaskInput {
  let explicit = '';
  for (const r of refs) explicit += r.explicit ? '1' : '0';
  return {
    paths: refs.map((r) => r.path).join('\n'),
    files: refs.map((r) => r.file).join('\n'),
    explicit,
    strict: opts.strict ?? false,
    dialect: opts.dialect,
    sendable,
  };
}

/**
 * The per-file pass of `validate` over a range of files: read, parse, schema, per-document rules, and the record
 * the tree rules need (null for a file that is not a checkpoint). The document itself is dropped here.
 */
export const validateTask: PoolTask<ValidateTaskInput, DocRecord | SentRecord | null> = {
  name: 'validate',
  start(input) {
    const paths = input.paths.split('\n');
    const files = input.files.split('\n');
    const base = { strict: input.strict, ...(input.dialect ? { dialect: input.dialect } : {}) };
    const named: CheckOptions = { ...base, sniff: true };
    const found: CheckOptions = { ...base, sniff: false };
    return (from, to) => {
      const out: (DocRecord | SentRecord | null)[] = [];
      for (let i = from; i < to; i++) {
        const path = paths[i]!;
        const opts = input.explicit.charCodeAt(i) === 49 ? named : found;
        const entry = pickEntry(path, opts);
        const doc = checkEntry(path, files[i]!, opts, entry);
        const format = doc && formatOf(path, entry);
        out.push(doc ? (input.sendable ? sentRecordOf(doc, format!) : recordOf(doc, format!)) : null);
      }
      return out;
    };
  },
};
