import type { PoolTask } from '../pool/pool.js';
import { type CheckOptions, checkEntry, formatOf, pickEntry } from './check-document.js';
import type { FileRef } from './collect-files.js';
import { type DocRecord, recordOf, type SentRecord, sentRecordOf } from './records.js';

/** The per-file pass's input, flat so that it is cheap to copy to a worker: one string per column. */
export interface ValidateTaskInput {
  /** Absolute paths, NUL-separated (a path can hold a line feed, never a NUL). */
  readonly paths: string;
  /** Display paths, NUL-separated; empty when each is its path from `cut` on. */
  readonly files: string;
  /** When every display path is the end of its path: where it starts (-1 otherwise; `files` then holds them). */
  readonly cut: number;
  /**
   * One character per file: '1' for a file named explicitly, '2' for one found in a folder that the walk listed as
   * a regular file, '0' for another found in a folder.
   */
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
  for (const r of refs) explicit += String.fromCharCode(howOf(r));
  const cut = commonCut(refs);
  return {
    paths: refs.map((r) => r.path).join('\0'),
    files: cut >= 0 ? '' : refs.map((r) => r.file).join('\0'),
    cut,
    explicit,
    strict: opts.strict ?? false,
    dialect: opts.dialect,
    sendable,
  };
}

/** Where every display path starts in its path, when each is the end of it (collectFiles' usual case); else -1. */
function commonCut(refs: readonly FileRef[]): number {
  if (refs.length === 0) return -1;
  const cut = refs[0]!.path.length - refs[0]!.file.length;
  for (const r of refs)
    if (r.path.length - r.file.length !== cut || !r.path.endsWith(r.file) || cut < 0) return -1;
  return cut;
}

/**
 * Checks one file of the per-file pass (read, parse, schema, per-document rules) as `how` it was found (explicit,
 * listed or not), into a record kept whole (one thread) or cut to send (`sendable`).
 */
export function fileChecker(
  opts: { readonly strict: boolean; readonly dialect: string | undefined },
  sendable: boolean,
): (path: string, file: string, how: number) => DocRecord | SentRecord | null {
  const base = { strict: opts.strict, ...(opts.dialect ? { dialect: opts.dialect } : {}) };
  const named: CheckOptions = { ...base, sniff: true };
  const found: CheckOptions = { ...base, sniff: false };
  const listed: CheckOptions = { ...found, listedAsFile: true };
  return (path, file, how) => {
    const o = how === EXPLICIT ? named : how === LISTED ? listed : found;
    const entry = pickEntry(path, o);
    const doc = checkEntry(path, file, o, entry);
    if (!doc) return null;
    const format = formatOf(path, entry);
    return sendable ? sentRecordOf(doc, format) : recordOf(doc, format);
  };
}

/** How a file ref is marked in `ValidateTaskInput.explicit`: '1', '2' or '0'. */
const EXPLICIT = 49;
const LISTED = 50;

/** The `how` of fileChecker for a ref. */
export const howOf = (r: FileRef) => (r.explicit ? EXPLICIT : r.listedAsFile ? LISTED : 48);

/**
 * The per-file pass of `validate` over a range of files: read, parse, schema, per-document rules, and the record
 * the tree rules need (null for a file that is not a checkpoint). The document itself is dropped here.
 */
export const validateTask: PoolTask<ValidateTaskInput, DocRecord | SentRecord | null> = {
  name: 'validate',
  start(input) {
    const paths = input.paths.split('\0');
    const files = input.cut >= 0 ? undefined : input.files.split('\0');
    const check = fileChecker(input, input.sendable);
    return (from, to) => {
      const out: (DocRecord | SentRecord | null)[] = [];
      for (let i = from; i < to; i++) {
        const path = paths[i]!;
        out.push(check(path, files ? files[i]! : path.slice(input.cut), input.explicit.charCodeAt(i)));
      }
      return out;
    };
  },
};
