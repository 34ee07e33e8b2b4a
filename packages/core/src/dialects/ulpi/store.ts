import { atomicReplace } from '../../fs/atomic.js';
import { type FileSystem, nodeFileSystem } from '../../fs/file-system.js';
import { hasNoText, valueText } from '../../text/value-text.js';
import { ulpiUsage } from './errors.js';
import { eventLogPathFor, mutateThroughEventLog } from './event-log-io.js';
import { type UlpiLockOptions, withUlpiLock } from './lock.js';
import { isObject, isoStamp, type UlpiDoc } from './model.js';

export const ULPI_SCHEMA_VERSION = 2;

/** Options every ulpi writer takes: the file-system seam, the clock, the lock timing. */
export interface UlpiWriteOptions {
  readonly fs?: FileSystem;
  /** The clock (ms since the epoch), for tests. */
  readonly now?: () => number;
  readonly lock?: Omit<UlpiLockOptions, 'fs'>;
}

/** The bytes the original writes: 2-space JSON with a trailing newline. */
export function serializeUlpiDoc(doc: unknown): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** Reads and parses a status file as any JSON value; a missing or unparsable file is a parse error (exit 1). */
export function readUlpiValue(file: string, fs: FileSystem = nodeFileSystem): unknown {
  try {
    // A byte order mark is kept, so JSON.parse refuses it as the original does (`ckpt validate` says why).
    return JSON.parse(
      new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(fs.readFileSync(file)),
    );
  } catch (e) {
    throw ulpiUsage(`cannot read/parse ${file}: ${(e as Error).message}`, e);
  }
}

/** What a JSON value is, for messages: `null`, `an array`, `a number`... */
export function describeJson(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** Reads a status document that must be a JSON object (exit 1 otherwise, where the original crashes). */
export function readUlpiDoc(file: string, fs: FileSystem = nodeFileSystem): UlpiDoc {
  const value = readUlpiValue(file, fs);
  if (!isObject(value))
    throw ulpiUsage(`${file} is not a status document: it holds ${describeJson(value)}, not a JSON object`);
  return value;
}

/**
 * The add-only upgrade a mutating write applies: `openItems ??= []`, `resolvedItems ??= []` (new keys land at the
 * end) and `schemaVersion` 2 unless the value found is >= 2 (an existing key keeps its place). Nothing else
 * changes; idempotent. A `schemaVersion` that `>=` cannot compare is a usage error naming `file` (exit 1), where
 * the original throws a TypeError before it writes.
 */
export function upgradeUlpiDoc(doc: UlpiDoc, file = 'the status file'): UlpiDoc {
  if (!Object.hasOwn(doc, 'openItems') || doc.openItems === null || doc.openItems === undefined)
    doc.openItems = [];
  if (!Object.hasOwn(doc, 'resolvedItems') || doc.resolvedItems === null || doc.resolvedItems === undefined)
    doc.resolvedItems = [];
  // JavaScript's `>=`, as the original compares: a "3" or [3] found there is kept, anything not >= 2 becomes 2.
  // A value `>=` cannot compare ({"toString":0}) stops the original with a TypeError before it writes: exit 1.
  if (hasNoText(doc.schemaVersion))
    throw ulpiUsage(
      `${file}: schemaVersion holds ${valueText(doc.schemaVersion)}, which cannot be compared with ${ULPI_SCHEMA_VERSION} — fix /schemaVersion (ckpt validate ${file} shows where)`,
    );
  if (!((doc.schemaVersion as number) >= ULPI_SCHEMA_VERSION)) doc.schemaVersion = ULPI_SCHEMA_VERSION;
  return doc;
}

/** Writes a whole document atomically (temp in the same directory, fsync, rename, directory fsync). */
export function writeUlpiDoc(file: string, doc: UlpiDoc, fs: FileSystem, mode?: number): void {
  atomicReplace(file, serializeUlpiDoc(doc), { fs, ...(mode !== undefined ? { mode } : {}) });
}

/**
 * A locked read-modify-write, as every mutating verb does it: take `<file>.lock`, read, upgrade add-only, let
 * `change` mutate the document in place (or throw a refusal, leaving the file byte-identical), stamp
 * `updatedAt`, write atomically. With an event log beside the file, the change goes through the log instead.
 */
export function mutateUlpiDoc<T>(
  file: string,
  change: (doc: UlpiDoc, stamp: string) => T,
  opts: UlpiWriteOptions = {},
): T {
  const fs = opts.fs ?? nodeFileSystem;
  return withUlpiLock(
    file,
    () => {
      // Stamped under the lock, so a writer that waited never stamps an updatedAt older than the one it replaces.
      const stamp = isoStamp(opts.now?.() ?? Date.now());
      if (fs.existsSync(eventLogPathFor(file)))
        return mutateThroughEventLog(
          file,
          (doc) => {
            const r = change(upgradeUlpiDoc(doc, file), stamp);
            doc.updatedAt = stamp;
            return r;
          },
          fs,
        );
      const doc = upgradeUlpiDoc(readUlpiDoc(file, fs), file);
      const result = change(doc, stamp);
      doc.updatedAt = stamp;
      writeUlpiDoc(file, doc, fs);
      return result;
    },
    { ...opts.lock, fs },
  );
}
