import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  type Stats,
} from 'node:fs';
import { constants as osConstants } from 'node:os';
import { sep } from 'node:path';
import { CkptError } from '../errors.js';
import { maxFileSize } from './read-limits.js';

/** The finding codes a refused read becomes (documented in findings/generic-codes.ts). */
export type ReadRefusalCode = 'io/not-a-regular-file' | 'io/too-large' | 'io/outside-project';

/**
 * A checkpoint path that ckpt will not read: not a regular file, bigger than the size limit, or (when reads are
 * confined) resolving outside the project. Thrown before a byte is read; the CLI maps it to exit 3.
 */
export class ReadRefusedError extends CkptError {
  constructor(
    readonly path: string,
    readonly findingCode: ReadRefusalCode,
    /** Why, without the path: `is a FIFO, not a regular file`. */
    readonly reason: string,
  ) {
    super('UNREADABLE', `cannot read ${path}: ${reason}`);
    this.name = 'ReadRefusedError';
  }
}

/** How reads of one file are bounded. */
export interface ReadOptions {
  /** Bytes; default `maxFileSize()` (flag, CKPT_MAX_FILE_SIZE, or 64 MiB). */
  readonly maxSize?: number;
  /** A directory the file's real path must be inside (symlinks are followed, but never out of it). */
  readonly confineTo?: string;
}

// O_NONBLOCK: opening a FIFO without a writer returns at once instead of waiting forever; fstat then refuses it.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;
const UTF8 = { encoding: 'utf8' } as const;

/** What a non-regular file is, in words. */
export function fileTypeName(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** Human size: `64 MiB`, `1.5 GiB`, `812 bytes`. */
export function formatBytes(n: number): string {
  for (const [unit, size] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const)
    if (n >= size) return `${Number((n / size).toFixed(1))} ${unit}`;
  return `${n} bytes`;
}

const realRoots = new Map<string, string>();

function realRoot(dir: string): string {
  let r = realRoots.get(dir);
  if (r === undefined) {
    r = realpathSync.native(dir);
    realRoots.set(dir, r);
  }
  return r;
}

/** The real path of an open descriptor (Linux: /proc; elsewhere the path's realpath, checked just after open). */
function realPathOf(fd: number, path: string): string {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return realpathSync.native(path);
  }
}

/** True when `real` is `root` or under it. */
function inside(real: string, root: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * A directory is refused with the error readFileSync gives for one (EISDIR, same message), so callers that
 * mirror an original tool's message (the ulpi verbs) keep it; readFailure reports it as `io/not-a-regular-file`.
 */
function eisdir(path: string): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error('EISDIR: illegal operation on a directory, read');
  e.code = 'EISDIR';
  e.errno = -osConstants.errno.EISDIR;
  e.syscall = 'read';
  e.path = path;
  return e;
}

/** Opens non-blocking and checks the descriptor; on a refusal it is closed and ReadRefusedError thrown. */
function openChecked(path: string, opts: ReadOptions | undefined, sized: boolean): number {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    check(fd, path, opts, sized);
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  return fd;
}

/** Refuses what must not be read. */
function check(fd: number, path: string, opts: ReadOptions | undefined, sized: boolean): void {
  const st = fstatSync(fd);
  if (st.isDirectory()) throw eisdir(path);
  if (!st.isFile())
    throw new ReadRefusedError(path, 'io/not-a-regular-file', `is ${fileTypeName(st)}, not a regular file`);
  const max = sized ? (opts?.maxSize ?? maxFileSize()) : Number.POSITIVE_INFINITY;
  if (st.size > max)
    throw new ReadRefusedError(
      path,
      'io/too-large',
      `is ${formatBytes(st.size)} (${st.size} bytes), over the ${formatBytes(max)} limit (--max-file-size or CKPT_MAX_FILE_SIZE)`,
    );
  if (opts?.confineTo !== undefined && !inside(realPathOf(fd, path), realRoot(opts.confineTo)))
    throw new ReadRefusedError(
      path,
      'io/outside-project',
      'resolves through a symbolic link to a path outside the project; not read',
    );
}

/**
 * Reads a checkpoint file as UTF-8 text (invalid bytes become U+FFFD, as readFileSync does), only when it is a
 * regular file within the size limit: opened non-blocking, checked with fstat on the descriptor, then read from
 * that descriptor (so what was checked is what is read). Errors of open (ENOENT, ELOOP, EACCES) are thrown as is;
 * a refused file throws ReadRefusedError.
 */
export function readRegularFileUtf8(path: string, opts?: ReadOptions): string {
  const fd = openChecked(path, opts, true);
  try {
    return readFileSync(fd, UTF8);
  } finally {
    closeSync(fd);
  }
}

/** Throws what readRegularFile would, without reading: for callers that only ask whether a file is readable. */
export function assertReadable(path: string, opts?: ReadOptions): void {
  closeSync(openChecked(path, opts, false));
}

/** Like readRegularFileUtf8, as bytes. */
export function readRegularFile(path: string, opts?: ReadOptions): Buffer {
  const fd = openChecked(path, opts, true);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * True when something is at the path, whatever it is: a file, a directory, a FIFO, a dangling symlink or a
 * symlink loop (existsSync says false for the last two, which would hide a broken checkpoint as a missing one).
 */
export function entryExists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // ENOTDIR, EACCES on a parent: nothing readable is there
  }
}
