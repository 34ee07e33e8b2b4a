import { dirname } from 'node:path';
import { asWriteError, WriteError } from '../../errors.js';
import { fsyncDir, writeTemp } from '../../fs/atomic.js';
import { type FileSystem, nodeFileSystem } from '../../fs/file-system.js';
import { ulpiRefusal, ulpiUsage } from './errors.js';
import {
  applyUlpiTransition,
  diffUlpiDocs,
  hashUlpiDoc,
  replayUlpiEventLog,
  type UlpiEventLine,
} from './event-log.js';
import { isObject, own, type UlpiDoc } from './model.js';

/** `<id>.events.jsonl` beside `<id>.json`. */
export function eventLogPathFor(file: string): string {
  return `${file.replace(/\.json$/, '')}.events.jsonl`;
}

const serialize = (doc: unknown) => `${JSON.stringify(doc, null, 2)}\n`;
const SNAPSHOT_MODE = 0o600;

function readText(fs: FileSystem, path: string): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(fs.readFileSync(path));
}

function truncate(fs: FileSystem, path: string, bytes: number): void {
  const fd = fs.openSync(path, 'r+');
  try {
    fs.ftruncateSync(fd, bytes);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Why a snapshot that matches no state of its log differs: a different run (id or createdAt not the log's, as
 * after the original re-initialised the file and ignored the log), or the same run written without the log.
 */
export function ulpiDivergence(snapshot: unknown, logged: UlpiDoc): 'reinitialised' | 'edited' {
  const same = (k: string) => JSON.stringify(own(snapshot, k)) === JSON.stringify(own(logged, k));
  return same('id') && same('createdAt') ? 'edited' : 'reinitialised';
}

function divergedMessage(file: string, log: string, snapshot: unknown, logged: UlpiDoc): string {
  const why =
    ulpiDivergence(snapshot, logged) === 'reinitialised'
      ? `is a different run than its event log ${log} records (id/createdAt differ: re-initialised without the log?)`
      : `matches no state of its event log ${log} (written without the log, e.g. by checkpoint.mjs or by hand)`;
  return `${file} ${why} — refusing to replay the log over it. Move the log away to keep the file, or run \`ckpt ulpi rebuild ${file} --force\` to restore the logged state`;
}

/**
 * Replays the log and repairs what a crash can leave: a torn tail is truncated, and a snapshot that is an earlier
 * state of the log (a crash between the fsynced append and the snapshot replace) is rebuilt from it. A snapshot
 * that matches no state of the log was written without it: refused (exit 2) unless `replaceDiverged`, so a run
 * re-initialised by a tool that ignores the log is never overwritten by the old run. A log that fails closed
 * throws (exit 1).
 */
export function recoverUlpiEventLog(
  file: string,
  fs: FileSystem = nodeFileSystem,
  o: { replaceDiverged?: boolean; restoreMissing?: boolean } = {},
): UlpiDoc {
  const log = eventLogPathFor(file);
  const replay = replayUlpiEventLog(readText(fs, log));
  if (!replay.ok) throw ulpiUsage(`event log ${log} fails closed: ${replay.error.message}`);
  let snapshot: unknown;
  let snapshotHash: string | undefined;
  try {
    snapshot = JSON.parse(readText(fs, file));
    snapshotHash = hashUlpiDoc(snapshot);
  } catch (e) {
    snapshotHash = undefined;
    // Only a crash inside a logged init leaves a log without its file. A file gone after later transitions was
    // deleted, which the skill documents as discarding the run: never bring it back unasked.
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' && replay.hashes.length > 1 && !o.restoreMissing)
      throw ulpiUsage(
        `cannot read/parse ${file}: ${(e as Error).message} — its event log ${log} remains: move the log away to discard the run, or run \`ckpt ulpi rebuild ${file}\` to restore it`,
      );
  }
  // A snapshot some tool rebuilt from a torn transaction's lines is not a different run: the log wins.
  const diverged =
    snapshotHash !== undefined &&
    !replay.hashes.includes(snapshotHash) &&
    !replay.tornHashes.includes(snapshotHash);
  if (diverged && !o.replaceDiverged) throw ulpiRefusal(divergedMessage(file, log, snapshot, replay.doc));
  if (replay.tornTail !== undefined) truncate(fs, log, replay.completeBytes);
  if (snapshotHash !== replay.hash) replaceSnapshot(fs, file, serialize(replay.doc));
  return replay.doc;
}

/**
 * Applies a change through the log: recover, mutate a copy, append every transition of the change as one
 * transaction, then replace the snapshot atomically. All or nothing: a write that fails rolls both back and throws
 * a WriteError (exit 4); a crash before the append's fsync leaves the old state (replay ignores a transaction that
 * did not land whole); after it, the log is ahead and the next append (or rebuild) brings the snapshot up to it.
 */
export function mutateThroughEventLog<T>(file: string, change: (doc: UlpiDoc) => T, fs: FileSystem): T {
  const before = recoverUlpiEventLog(file, fs);
  const after = JSON.parse(JSON.stringify(before)) as UlpiDoc;
  const result = change(after);
  appendUlpiTransitions(file, before, after, fs);
  return result;
}

const encoder = new TextEncoder();

/**
 * Replaces the snapshot: temp file (mode 0600, fsynced), rename, then a directory fsync whose failure is tolerated,
 * as the original does: the log is already durable and wins, so a rename lost to a power cut only leaves the
 * snapshot behind, which the next write rebuilds. Throws a WriteError only when the snapshot was not replaced.
 */
function replaceSnapshot(fs: FileSystem, file: string, text: string): void {
  const tmp = writeTemp(fs, file, text, SNAPSHOT_MODE);
  try {
    fs.renameSync(tmp, file);
  } catch (e) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // Readers ignore temp files; doctor reports old ones.
    }
    throw asWriteError(e, file);
  }
  try {
    fsyncDir(fs, dirname(file));
  } catch (e) {
    if (!(asWriteError(e, file) instanceof WriteError)) throw e;
  }
}

/** The length of a file, 0 when it does not exist. */
function sizeOf(fs: FileSystem, path: string): number {
  return fs.existsSync(path) ? fs.statSync(path).size : 0;
}

/** Cuts a file back to `bytes` and fsyncs it; false when that failed too. */
function rollBack(fs: FileSystem, path: string, bytes: number): boolean {
  try {
    truncate(fs, path, bytes);
    return true;
  } catch {
    return false;
  }
}

const errnoOf = (e: unknown) => (e as NodeJS.ErrnoException | undefined)?.code;

/**
 * Appends one transaction: the whole text in one write() of one buffer, then fsync. A short write or an error
 * (no space, quota, file size limit...) cuts the log back to its previous length, under the caller's lock, and
 * throws a WriteError that says whether the rollback worked. Returns the log's previous length.
 */
function appendTransaction(fs: FileSystem, log: string, text: string): number {
  const bytes = encoder.encode(text);
  const previous = sizeOf(fs, log);
  let fd: number;
  try {
    fd = fs.openSync(log, 'a', SNAPSHOT_MODE);
  } catch (e) {
    throw asWriteError(e, log);
  }
  let failure: unknown;
  let written = 0;
  try {
    written = fs.writeSync(fd, bytes);
    // A short write: ask once for the rest, which either lands or says why not (ENOSPC, EDQUOT, EFBIG...).
    if (written < bytes.length) written += fs.writeSync(fd, bytes.subarray(written));
    if (written < bytes.length)
      failure = Object.assign(new Error(`short write: ${written} of ${bytes.length} bytes`), { code: 'EIO' });
    else fs.fsyncSync(fd);
  } catch (e) {
    failure = e;
  }
  if (failure !== undefined) {
    const converted = asWriteError(failure, log);
    // An injected crash (tests) is a dead process: it rolls nothing back.
    if (!(converted instanceof WriteError)) throw converted;
    const undone = rollBack(fs, log, previous);
    try {
      fs.closeSync(fd);
    } catch {
      // The write already failed; that is the error to report.
    }
    throw new WriteError(log, converted.errno, {
      cause: failure,
      detail: undone
        ? 'nothing was changed: the transaction was rolled back'
        : `the transaction did not land whole and could not be cut off; replay ignores it and the next write removes it`,
    });
  }
  try {
    fs.closeSync(fd);
  } catch {
    // The transaction is already fsynced.
  }
  return previous;
}

/**
 * Appends the transitions from `before` to `after` as one transaction (lines marked `tx: {i, n}` when there are
 * two or more), then replaces the snapshot. When the snapshot cannot be written, the log is cut back too, so the
 * change lands in both files or in neither (a WriteError, exit 4, says which).
 */
export function appendUlpiTransitions(file: string, before: UlpiDoc, after: UlpiDoc, fs: FileSystem): void {
  let hash = hashUlpiDoc(before);
  const transitions = diffUlpiDocs(before, after);
  const lines: string[] = [];
  // Each afterHash is computed by applying the transition, so replaying the log gives exactly this document.
  const work = JSON.parse(JSON.stringify(before)) as UlpiDoc;
  for (const t of transitions) {
    const problem = applyUlpiTransition(work, t);
    if (problem) throw ulpiUsage(`cannot log transition ${JSON.stringify(t.path)}: ${problem}`);
    const beforeHash = hash;
    hash = hashUlpiDoc(work);
    const tx = transitions.length > 1 ? { tx: { i: lines.length + 1, n: transitions.length } } : {};
    lines.push(JSON.stringify({ v: 1, ...t, beforeHash, afterHash: hash, ...tx }));
  }
  const log = eventLogPathFor(file);
  const previous = lines.length > 0 ? appendTransaction(fs, log, `${lines.join('\n')}\n`) : undefined;
  try {
    replaceSnapshot(fs, file, serialize(work));
  } catch (e) {
    if (!(e instanceof WriteError) || previous === undefined) throw e;
    const undone = rollBack(fs, log, previous);
    throw new WriteError(e.path, e.errno, {
      cause: e,
      detail: undone
        ? 'nothing was changed: the logged transaction was rolled back'
        : `the change is in the event log ${log}; the next write or \`ckpt ulpi rebuild\` brings the file up to it`,
    });
  }
}

/**
 * Starts the opt-in log for a document: writes the init line `{v:1, op:"init", doc, afterHash}` (fsynced), then
 * the snapshot. Refuses when a log already exists (a second init would break replay). A failed write removes the
 * log it created, so a later init is not refused over a log without its init line.
 */
export function initializeUlpiEventLog(file: string, doc: UlpiDoc, opts: { fs?: FileSystem } = {}): void {
  const fs = opts.fs ?? nodeFileSystem;
  const log = eventLogPathFor(file);
  if (fs.existsSync(log)) throw ulpiRefusal(`${log} already exists: a log has exactly one init line`);
  if (!isObject(doc)) throw ulpiUsage('the initial document must be an object');
  const line: UlpiEventLine = { v: 1, op: 'init', doc, afterHash: hashUlpiDoc(doc) };
  try {
    appendTransaction(fs, log, `${JSON.stringify(line)}\n`);
    replaceSnapshot(fs, file, serialize(doc));
  } catch (e) {
    if (e instanceof WriteError)
      try {
        fs.unlinkSync(log);
      } catch (u) {
        if (errnoOf(u) !== 'ENOENT') throw e;
      }
    throw e;
  }
}

/**
 * Rebuilds the snapshot from the log (after a crash, or a missing file), returning the replayed document. A
 * snapshot written without the log is refused unless `force`, which replaces it with the logged state.
 */
export function rebuildUlpiSnapshot(file: string, opts: { fs?: FileSystem; force?: boolean } = {}): UlpiDoc {
  return recoverUlpiEventLog(file, opts.fs ?? nodeFileSystem, {
    replaceDiverged: opts.force === true,
    restoreMissing: true,
  });
}
