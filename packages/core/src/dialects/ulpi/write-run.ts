import { join } from 'node:path';
import { type FileSystem, nodeFileSystem } from '../../fs/file-system.js';
import { hasNoText, valueText } from '../../text/value-text.js';
import { refuseUlpiSecret, ulpiRefusal, ulpiUsage } from './errors.js';
import { eventLogPathFor, mutateThroughEventLog } from './event-log-io.js';
import { ulpiFinalizeDoneProblems } from './finalize.js';
import { withUlpiLock } from './lock.js';
import { assertFinalizeReadable, assertUnitsReadable } from './malformed.js';
import { own, type UlpiDoc } from './model.js';
import {
  mutateUlpiDoc,
  readUlpiDoc,
  serializeUlpiDoc,
  type UlpiWriteOptions,
  upgradeUlpiDoc,
  writeUlpiDoc,
} from './store.js';

export const FINAL_STATES = ['done', 'needs_attention', 'aborted'] as const;

/** `finalize`: sets the terminal status and `finishedAt`; `done` fails closed (exit 2) while anything is open. */
export function finalizeUlpiRun(
  file: string,
  status: string,
  o: { result?: unknown } = {},
  opts: UlpiWriteOptions = {},
): void {
  if (!(FINAL_STATES as readonly string[]).includes(status))
    throw ulpiUsage('finalize requires <done|needs_attention|aborted>');
  if (o.result !== undefined) refuseUlpiSecret('--result', o.result);
  mutateUlpiDoc(
    file,
    (doc, stamp) => {
      if (status === 'done') {
        assertUnitsReadable(file, doc);
        assertFinalizeReadable(file, doc);
        const reasons = ulpiFinalizeDoneProblems(doc);
        if (reasons.length)
          throw ulpiRefusal(`refusing finalize done — ${reasons.join('; ')} (use needs_attention)`);
      }
      doc.status = status;
      doc.finishedAt = stamp;
      if (o.result !== undefined) doc.result = o.result;
    },
    opts,
  );
}

export interface UlpiGcResult {
  readonly archived: number;
  readonly dir: string;
  readonly reason?: string;
  /** Files left in place because the original crashes on them, each with why (`holds null, not a status document`). */
  readonly skipped: readonly { readonly file: string; readonly why: string }[];
}

/**
 * `gc`: moves top-level runs older than `keepDays` into `archive/`, never a running or initializing one (as the
 * original; unparsable files are left alone). A file holding JSON that is not an object (`null`, where the
 * original crashes) is left alone too and named in `skipped`, as is one whose `updatedAt` cannot be made text; the
 * CLI then exits 1.
 */
export function gcUlpiRuns(
  dir: string,
  o: { keepDays?: number } = {},
  opts: { fs?: FileSystem; now?: () => number } = {},
): UlpiGcResult {
  const fs = opts.fs ?? nodeFileSystem;
  const keepDays = o.keepDays ?? 7;
  if (!Number.isFinite(keepDays) || keepDays < 0)
    throw ulpiUsage('--keep-days must be a non-negative number');
  if (!fs.existsSync(dir)) return { archived: 0, dir, reason: 'no runs dir', skipped: [] };
  const cutoff = (opts.now?.() ?? Date.now()) - keepDays * 86_400_000;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (e) {
    throw ulpiUsage((e as Error).message, e);
  }
  let archived = 0;
  const skipped: { file: string; why: string }[] = [];
  for (const f of names.filter((n) => n.endsWith('.json')).sort()) {
    const fp = join(dir, f);
    let doc: unknown;
    try {
      doc = JSON.parse(new TextDecoder().decode(fs.readFileSync(fp)));
    } catch {
      continue;
    }
    if (doc === null) {
      skipped.push({ file: fp, why: 'holds null, not a status document' });
      continue;
    }
    const status = own(doc, 'status');
    if (status === 'running' || status === 'initializing') continue;
    // Date.parse of the value as the original reads it: a missing updatedAt parses as "0" (the year 2000). One
    // that cannot be made text ({"toString":0}) throws there: the file is left in place, as a null one.
    const updated = own(doc, 'updatedAt');
    if (hasNoText(updated)) {
      skipped.push({ file: fp, why: `has updatedAt ${valueText(updated)}, not a time` });
      continue;
    }
    const ts = Date.parse(String(updated || 0));
    if (Number.isFinite(ts) && ts > cutoff) continue;
    fs.mkdirSync(join(dir, 'archive'), { recursive: true });
    fs.renameSync(fp, join(dir, 'archive', f));
    archived++;
  }
  return { archived, dir, skipped };
}

export interface UlpiMigration {
  readonly file: string;
  readonly fromVersion: unknown;
  readonly changed: boolean;
  /** Keys the upgrade adds or changes, in order. */
  readonly changes: readonly string[];
  /** The document after the upgrade, as it would be written. */
  readonly text: string;
  readonly written: boolean;
}

/**
 * `ckpt migrate`: shows (or with `write`, applies under the lock) the add-only v1 → v2 upgrade. Only the
 * upgrade: `updatedAt` and everything else stay as they are; an up-to-date file is never rewritten.
 */
export function migrateUlpiFile(
  file: string,
  o: { write?: boolean } = {},
  opts: UlpiWriteOptions = {},
): UlpiMigration {
  const fs = opts.fs ?? nodeFileSystem;
  const plan = (doc: UlpiDoc): Omit<UlpiMigration, 'written'> => {
    const fromVersion = doc.schemaVersion;
    const before = new Map(Object.entries(doc).map(([k, v]) => [k, JSON.stringify(v)]));
    upgradeUlpiDoc(doc, file);
    const changes = Object.keys(doc).filter((k) => before.get(k) !== JSON.stringify(doc[k]));
    return { file, fromVersion, changed: changes.length > 0, changes, text: serializeUlpiDoc(doc) };
  };
  if (!o.write) return { ...plan(readUlpiDoc(file, fs)), written: false };
  return withUlpiLock(
    file,
    () => {
      if (fs.existsSync(eventLogPathFor(file))) {
        // The log is the truth beside a snapshot: the upgrade is logged like any other change.
        const p = mutateThroughEventLog(file, (doc) => plan(doc), fs);
        return { ...p, written: p.changed };
      }
      const doc = readUlpiDoc(file, fs);
      const p = plan(doc);
      if (p.changed) writeUlpiDoc(file, doc, fs);
      return { ...p, written: p.changed };
    },
    { ...opts.lock, fs },
  );
}

/** `get`: the document as stored. `resume`-style reads never write. */
export function readUlpiRun(file: string, fs?: FileSystem): UlpiDoc {
  return readUlpiDoc(file, fs);
}
