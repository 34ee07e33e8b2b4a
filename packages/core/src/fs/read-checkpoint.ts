import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  readvSync,
  realpathSync,
  type Stats,
} from 'node:fs';
import { sep } from 'node:path';
import { CkptError } from '../errors.js';
import { errnoNumber } from '../util/os.js';
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
  /**
   * The directory walk that found this path listed it as a regular file (its Dirent), not a symlink: a small file
   * is then read without an fstat (see readCheckpointBytes).
   */
  readonly listedAsFile?: boolean;
}

// O_NONBLOCK: opening a FIFO without a writer returns at once instead of waiting forever; fstat then refuses it.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

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

/**
 * Real paths of the directories files were read from, for one synchronous pass: cleared at the next turn of the
 * event loop (captured setImmediate: fake timers in tests do not hold it), so a directory replaced by a symlink
 * later is resolved again. Within one pass this is the same snapshot the directory walk itself is.
 */
const realDirs = new Map<string, string>();
const nextTurn = setImmediate;

function realDir(dir: string): string {
  let r = realDirs.get(dir);
  if (r === undefined) {
    if (realDirs.size === 0) nextTurn(() => realDirs.clear()).unref();
    r = realpathSync.native(dir);
    realDirs.set(dir, r);
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
  e.errno = -errnoNumber('EISDIR');
  e.syscall = 'read';
  e.path = path;
  return e;
}

function outside(path: string): ReadRefusedError {
  return new ReadRefusedError(
    path,
    'io/outside-project',
    'resolves through a symbolic link to a path outside the project; not read',
  );
}

const NOFOLLOW_FLAGS = constants.O_NOFOLLOW === undefined ? undefined : OPEN_FLAGS | constants.O_NOFOLLOW;

/**
 * Opens a path that must resolve inside `root`. First without following a symlink in its last component: when
 * that succeeds, its real path is its directory's real path (memoised for the pass) plus its name, so no per-file
 * readlink is needed. A symlink (ELOOP), a name that is not plain, or a platform without O_NOFOLLOW take the
 * exact way: open following links, then ask the kernel where the descriptor points. A file outside that is also
 * not readable (a device, too large) is refused for that first, as the checks always did.
 */
function openConfined(path: string, root: string, opts: ReadOptions | undefined, sized: boolean): number {
  const cut = path.lastIndexOf(sep);
  const name = path.slice(cut + 1);
  let fd: number | undefined;
  let real: string | undefined;
  if (NOFOLLOW_FLAGS !== undefined && cut > 0 && name !== '' && name !== '.' && name !== '..') {
    try {
      fd = openSync(path, NOFOLLOW_FLAGS);
      real = `${realDir(path.slice(0, cut))}${sep}${name}`;
    } catch (e) {
      if (fd !== undefined) closeSync(fd);
      if (fd !== undefined || (e as NodeJS.ErrnoException).code !== 'ELOOP') throw e;
      fd = undefined;
    }
  }
  if (fd === undefined) fd = openSync(path, OPEN_FLAGS);
  try {
    if (inside(real ?? realPathOf(fd, path), root)) return fd;
    check(fd, path, opts, sized);
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  closeSync(fd);
  throw outside(path);
}

/** Opens non-blocking (and confined when asked); type and size are not checked yet. */
function openUnchecked(path: string, opts: ReadOptions | undefined, sized: boolean): number {
  return opts?.confineTo === undefined
    ? openSync(path, OPEN_FLAGS)
    : openConfined(path, realRoot(opts.confineTo), opts, sized);
}

/** Opens non-blocking and checks the descriptor; on a refusal it is closed and ReadRefusedError thrown. */
function openChecked(path: string, opts: ReadOptions | undefined, sized: boolean): number {
  const fd = openUnchecked(path, opts, sized);
  try {
    check(fd, path, opts, sized);
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  return fd;
}

/** Refuses what must not be read (type and size; confinement was checked at open). */
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
}

/** One read buffer per thread: checkpoint files are small, and most fit in it whole. */
const SCRATCH_SIZE = 64 * 1024;
let scratch: Buffer | undefined;
/**
 * The buffer as the one-element list readvSync reads into: readvSync validates its two arguments where readSync
 * validates five (each check one of Node's wrapped calls, an array of its arguments apiece: ~9% of a brief
 * `validate`'s allocation), and it reads the same way (one read at the descriptor's position, the same errors).
 */
let scratchList: Buffer[] | undefined;

/**
 * The bytes of a checkpoint file, read only when it is a regular file within the size limit: opened non-blocking
 * (a FIFO without a writer cannot block), checked with fstat on that descriptor, and read from it (so what was
 * checked is what is read). The result may be a view of a buffer the next read on this thread reuses: copy what
 * must be kept. Errors of open (ENOENT, ELOOP, EACCES) are thrown as is; a refused file throws ReadRefusedError.
 *
 * With `listedAsFile` (the directory walk saw a regular file, not a link, at this path) the fstat is skipped for a
 * file that fits in the buffer: nothing else can be at that path unless it was replaced since the walk, and even
 * then nothing blocks or is read unbounded (a FIFO reads as empty at once, a device fills the buffer), and an empty
 * or full read is fstat-checked anyway.
 */
export function readCheckpointBytes(path: string, opts?: ReadOptions): Buffer {
  const read = readChecked(path, opts);
  return typeof read === 'number' ? scratch!.subarray(0, read) : read;
}

/**
 * readCheckpointBytes' read: the number of bytes read into `scratch` when the file fits in it, else the file's
 * bytes in a buffer of their own.
 */
function readChecked(path: string, opts: ReadOptions | undefined): number | Buffer {
  const fd = openUnchecked(path, opts, true);
  try {
    let checked = false;
    if (!opts?.listedAsFile) {
      check(fd, path, opts, true);
      checked = true;
    }
    scratch ??= Buffer.allocUnsafe(SCRATCH_SIZE);
    scratchList ??= [scratch];
    let n: number;
    try {
      n = readvSync(fd, scratchList);
    } catch (e) {
      if (!checked) check(fd, path, opts, true); // a directory since the walk: EISDIR as readFileSync says it
      throw e;
    }
    const max = opts?.maxSize ?? maxFileSize();
    if (!checked && (n === 0 || n === SCRATCH_SIZE || n > max)) check(fd, path, opts, true);
    if (n < SCRATCH_SIZE) return n;
    // Bigger than the buffer (checked above): the rest from the descriptor's position.
    return Buffer.concat([scratch.subarray(0, n), readFileSync(fd)]);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a checkpoint file as UTF-8 text (invalid bytes become U+FFFD, as readFileSync does), only when it is a
 * regular file within the size limit (see readCheckpointBytes). Errors of open (ENOENT, ELOOP, EACCES) are thrown
 * as is; a refused file throws ReadRefusedError.
 */
export function readRegularFileUtf8(path: string, opts?: ReadOptions): string {
  const read = readChecked(path, opts);
  // Decoded from the buffer in place: no view of it made per file (`toString` without an encoding is UTF-8).
  return typeof read === 'number' ? scratch!.toString(undefined, 0, read) : read.toString('utf8');
}

/** Throws what readRegularFile would, without reading: for callers that only ask whether a file is readable. */
export function assertReadable(path: string, opts?: ReadOptions): void {
  closeSync(openChecked(path, opts, false));
}

/** Like readRegularFileUtf8, as bytes (a buffer of its own). */
export function readRegularFile(path: string, opts?: ReadOptions): Buffer {
  return Buffer.from(readCheckpointBytes(path, opts));
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
