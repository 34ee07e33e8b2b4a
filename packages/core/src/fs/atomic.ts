import { basename, dirname, join } from 'node:path';
import { asWriteError } from '../errors.js';
import { randomBytes } from '../util/crypto.js';
import { type FileSystem, nodeFileSystem } from './file-system.js';

const encoder = new TextEncoder();

/** Suffix of every temp file ckpt writes; readers ignore such files and report old ones. */
export const TEMP_MARK = '.ckpt-tmp-';

/** The temp name for a target: hidden, in the target's own directory (a rename across devices fails). */
export function tempPathFor(target: string): string {
  return join(
    dirname(target),
    `.${basename(target)}${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`,
  );
}

/** True for a name that ckpt (or an original tool) uses for an in-progress write. */
export function isTempName(name: string): boolean {
  return name.includes(TEMP_MARK) || /\.tmp(\.\d+)?$/.test(name) || /\.tmp\.[0-9]+$/.test(name);
}

function writeAll(fs: FileSystem, fd: number, bytes: Uint8Array): void {
  let off = 0;
  while (off < bytes.length) off += fs.writeSync(fd, bytes.subarray(off));
}

/** fsync a directory so a rename or link in it survives a power loss (skipped on Windows, where it fails). */
export function fsyncDir(fs: FileSystem, dir: string): void {
  if (process.platform === 'win32') return;
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes a new temp file next to `target` and fsyncs it. Returns its path. The caller publishes or unlinks it. */
export function writeTemp(
  fs: FileSystem,
  target: string,
  data: string | Uint8Array,
  mode = 0o644,
  tempPath = tempPathFor(target),
): string {
  let fd: number;
  try {
    fd = fs.openSync(tempPath, 'wx', mode);
  } catch (e) {
    throw asWriteError(e, target);
  }
  try {
    writeAll(fs, fd, typeof data === 'string' ? encoder.encode(data) : data);
    fs.fsyncSync(fd);
  } catch (e) {
    try {
      fs.closeSync(fd);
    } catch {
      // The write already failed; that error is the one to report.
    }
    tryUnlink(fs, tempPath);
    throw asWriteError(e, target);
  }
  try {
    fs.closeSync(fd);
  } catch (e) {
    tryUnlink(fs, tempPath);
    throw asWriteError(e, target);
  }
  return tempPath;
}

function tryUnlink(fs: FileSystem, path: string): void {
  try {
    fs.unlinkSync(path);
  } catch {
    // The temp file is already gone or cannot be removed; readers ignore temp files either way.
  }
}

/**
 * Replaces a whole document atomically: temp file in the same directory, write, fsync, close, rename, fsync the
 * directory. A crash at any step leaves the old document or the new one, never a half one.
 */
export function atomicReplace(
  target: string,
  data: string | Uint8Array,
  opts: { fs?: FileSystem; mode?: number; tempPath?: string } = {},
): void {
  const fs = opts.fs ?? nodeFileSystem;
  try {
    const tmp = writeTemp(fs, target, data, opts.mode, opts.tempPath);
    try {
      fs.renameSync(tmp, target);
    } catch (e) {
      tryUnlink(fs, tmp);
      throw e;
    }
    fsyncDir(fs, dirname(target));
  } catch (e) {
    // No space, no permission, a read-only disk...: a WriteError naming the target (exit 4), not the temp file.
    throw asWriteError(e, target);
  }
}

/**
 * Publishes a write-once file: temp file, fsync, then `link` to the final name, which fails with EEXIST instead of
 * replacing (a rename would silently replace). Returns false when the name is taken; nothing is overwritten.
 */
export function writeOnce(
  target: string,
  data: string | Uint8Array,
  opts: { fs?: FileSystem; mode?: number } = {},
): boolean {
  const fs = opts.fs ?? nodeFileSystem;
  try {
    const tmp = writeTemp(fs, target, data, opts.mode);
    try {
      fs.linkSync(tmp, target);
    } catch (e) {
      tryUnlink(fs, tmp);
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
    fs.unlinkSync(tmp);
    fsyncDir(fs, dirname(target));
    return true;
  } catch (e) {
    throw asWriteError(e, target);
  }
}

/** Appends one line and fsyncs it (the JSONL transition log). The line must end with a newline. */
export function appendDurable(
  target: string,
  line: string,
  opts: { fs?: FileSystem; mode?: number } = {},
): void {
  const fs = opts.fs ?? nodeFileSystem;
  try {
    const existed = fs.existsSync(target);
    const fd = fs.openSync(target, 'a', opts.mode ?? 0o600);
    try {
      writeAll(fs, fd, encoder.encode(line));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (!existed) fsyncDir(fs, dirname(target));
  } catch (e) {
    throw asWriteError(e, target);
  }
}
