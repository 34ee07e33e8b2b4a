import * as nodeFs from 'node:fs';
import { dirname } from 'node:path';
import { markWriteFailure } from '../errors.js';
import { readRegularFile } from './read-checkpoint.js';

/**
 * The system calls ckpt's writers use. Everything that writes goes through one of these, so tests can inject a
 * crash or an error at any step (see @ckpt/test-utils `faultyFileSystem`).
 */
export interface FileSystem {
  openSync(path: string, flags: string, mode?: number): number;
  writeSync(fd: number, data: Uint8Array): number;
  fsyncSync(fd: number): void;
  closeSync(fd: number): void;
  renameSync(from: string, to: string): void;
  linkSync(existing: string, newPath: string): void;
  unlinkSync(path: string): void;
  mkdirSync(path: string, opts?: { recursive?: boolean; mode?: number }): void;
  rmdirSync(path: string): void;
  readFileSync(path: string): Uint8Array;
  readdirSync(path: string): string[];
  statSync(path: string): { mtimeMs: number; isDirectory(): boolean; size: number };
  existsSync(path: string): boolean;
  ftruncateSync(fd: number, len: number): void;
}

// The path each open descriptor was opened with, so a failed write, fsync or truncate names its file.
const openPaths = new Map<number, string>();

/** Runs a writing call; a system error it raises is marked as a write failure (see core errors.ts) with its path. */
function writing<T>(path: string | undefined, call: () => T): T {
  try {
    return call();
  } catch (e) {
    markWriteFailure(e, path);
    throw e;
  }
}

/** The real file system. Errors of its writing calls are marked as write failures (exit 4 when they reach the CLI). */
export const nodeFileSystem: FileSystem = {
  openSync: (p, f, m) => {
    const fd = f === 'r' ? nodeFs.openSync(p, f, m) : writing(p, () => nodeFs.openSync(p, f, m));
    openPaths.set(fd, p);
    return fd;
  },
  writeSync: (fd, d) => writing(openPaths.get(fd), () => nodeFs.writeSync(fd, d)),
  fsyncSync: (fd) => writing(openPaths.get(fd), () => nodeFs.fsyncSync(fd)),
  closeSync: (fd) => {
    const p = openPaths.get(fd);
    openPaths.delete(fd);
    writing(p, () => nodeFs.closeSync(fd));
  },
  renameSync: (a, b) => writing(b, () => nodeFs.renameSync(a, b)),
  linkSync: (a, b) => writing(b, () => nodeFs.linkSync(a, b)),
  unlinkSync: (p) => writing(p, () => nodeFs.unlinkSync(p)),
  mkdirSync: (p, o) => {
    writing(p, () => {
      try {
        nodeFs.mkdirSync(p, o);
      } catch (e) {
        // Node's recursive mkdir says ENOENT where the parent exists but refuses (EROFS, EACCES): ask it plainly.
        if (!o?.recursive || (e as NodeJS.ErrnoException).code !== 'ENOENT' || !nodeFs.existsSync(dirname(p)))
          throw e;
        nodeFs.mkdirSync(p, { ...(o.mode !== undefined ? { mode: o.mode } : {}) });
      }
    });
  },
  rmdirSync: (p) => writing(p, () => nodeFs.rmdirSync(p)),
  // Checkpoint reads: a FIFO, device or directory is refused (never blocks, e.g. while a writer holds a lock),
  // and a file over the size limit is not read (fs/read-checkpoint.ts).
  readFileSync: (p) => readRegularFile(p),
  readdirSync: (p) => nodeFs.readdirSync(p),
  statSync: (p) => nodeFs.statSync(p),
  existsSync: (p) => nodeFs.existsSync(p),
  ftruncateSync: (fd, len) => writing(openPaths.get(fd), () => nodeFs.ftruncateSync(fd, len)),
};
