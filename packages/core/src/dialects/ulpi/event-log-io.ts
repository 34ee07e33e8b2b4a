import { dirname } from 'node:path';
import { appendDurable, atomicReplace, fsyncDir } from '../../fs/atomic.js';
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
  const diverged = snapshotHash !== undefined && !replay.hashes.includes(snapshotHash);
  if (diverged && !o.replaceDiverged) throw ulpiRefusal(divergedMessage(file, log, snapshot, replay.doc));
  if (replay.tornTail !== undefined) truncate(fs, log, replay.completeBytes);
  if (snapshotHash !== replay.hash) atomicReplace(file, serialize(replay.doc), { fs, mode: SNAPSHOT_MODE });
  return replay.doc;
}

/**
 * Applies a change through the log: recover, mutate a copy, append every transition of the change in one write
 * and fsync it, then replace the snapshot atomically. A crash before the fsync leaves the old state; after it,
 * the log is ahead and the next append (or rebuild) brings the snapshot up to it.
 */
export function mutateThroughEventLog<T>(file: string, change: (doc: UlpiDoc) => T, fs: FileSystem): T {
  const before = recoverUlpiEventLog(file, fs);
  const after = JSON.parse(JSON.stringify(before)) as UlpiDoc;
  const result = change(after);
  appendUlpiTransitions(file, before, after, fs);
  return result;
}

/** Appends the transitions from `before` to `after` (one fsynced write), then replaces the snapshot. */
export function appendUlpiTransitions(file: string, before: UlpiDoc, after: UlpiDoc, fs: FileSystem): void {
  let hash = hashUlpiDoc(before);
  const lines: string[] = [];
  // Each afterHash is computed by applying the transition, so replaying the log gives exactly this document.
  const work = JSON.parse(JSON.stringify(before)) as UlpiDoc;
  for (const t of diffUlpiDocs(before, after)) {
    const problem = applyUlpiTransition(work, t);
    if (problem) throw ulpiUsage(`cannot log transition ${JSON.stringify(t.path)}: ${problem}`);
    const beforeHash = hash;
    hash = hashUlpiDoc(work);
    lines.push(JSON.stringify({ v: 1, ...t, beforeHash, afterHash: hash }));
  }
  if (lines.length > 0) appendDurable(eventLogPathFor(file), `${lines.join('\n')}\n`, { fs });
  atomicReplace(file, serialize(work), { fs, mode: SNAPSHOT_MODE });
}

/**
 * Starts the opt-in log for a document: writes the init line `{v:1, op:"init", doc, afterHash}` (fsynced), then
 * the snapshot. Refuses when a log already exists (a second init would break replay).
 */
export function initializeUlpiEventLog(file: string, doc: UlpiDoc, opts: { fs?: FileSystem } = {}): void {
  const fs = opts.fs ?? nodeFileSystem;
  const log = eventLogPathFor(file);
  if (fs.existsSync(log)) throw ulpiRefusal(`${log} already exists: a log has exactly one init line`);
  if (!isObject(doc)) throw ulpiUsage('the initial document must be an object');
  const line: UlpiEventLine = { v: 1, op: 'init', doc, afterHash: hashUlpiDoc(doc) };
  appendDurable(log, `${JSON.stringify(line)}\n`, { fs });
  atomicReplace(file, serialize(doc), { fs, mode: SNAPSHOT_MODE });
  fsyncDir(fs, dirname(file));
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
