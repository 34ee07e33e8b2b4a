import * as nodeFs from 'node:fs';
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

/** The real file system. */
export const nodeFileSystem: FileSystem = {
  openSync: (p, f, m) => nodeFs.openSync(p, f, m),
  writeSync: (fd, d) => nodeFs.writeSync(fd, d),
  fsyncSync: (fd) => nodeFs.fsyncSync(fd),
  closeSync: (fd) => nodeFs.closeSync(fd),
  renameSync: (a, b) => nodeFs.renameSync(a, b),
  linkSync: (a, b) => nodeFs.linkSync(a, b),
  unlinkSync: (p) => nodeFs.unlinkSync(p),
  mkdirSync: (p, o) => {
    nodeFs.mkdirSync(p, o);
  },
  rmdirSync: (p) => nodeFs.rmdirSync(p),
  // Checkpoint reads: a FIFO, device or directory is refused (never blocks, e.g. while a writer holds a lock),
  // and a file over the size limit is not read (fs/read-checkpoint.ts).
  readFileSync: (p) => readRegularFile(p),
  readdirSync: (p) => nodeFs.readdirSync(p),
  statSync: (p) => nodeFs.statSync(p),
  existsSync: (p) => nodeFs.existsSync(p),
  ftruncateSync: (fd, len) => nodeFs.ftruncateSync(fd, len),
};
