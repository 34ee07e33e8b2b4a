import { writeSync } from 'node:fs';

/** What a full non-blocking stdout waits on (Atomics.wait on a word nobody notifies: a sleep). */
let pause: Int32Array | undefined;

/**
 * Writes the report to stdout synchronously, without creating `process.stdout` (a stream whose setup loads
 * several modules and, for a pipe, makes writes asynchronous). A reader that closed the pipe early (`| head`)
 * is not an error: the rest is dropped quietly instead of dying on EPIPE with a stack trace. A non-blocking
 * stdout (EAGAIN: e.g. a pipe that a worker thread's stdio set-up, or the parent process, made non-blocking)
 * is waited for, a millisecond at a time, and written the same way: never through the stream, whose writes
 * would land after the later pieces this function writes directly (a report out of order).
 */
export function writeStdout(text: string): boolean {
  const buf = Buffer.from(text);
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(1, buf, off, buf.length - off);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return false;
      if (code !== 'EAGAIN') throw e;
      pause ??= new Int32Array(new SharedArrayBuffer(4));
      Atomics.wait(pause, 0, 0, 1);
    }
  }
  return true;
}

/**
 * About how much text is gathered before one write: few system calls, and little held: text that waits for a
 * write lives long enough to be copied out of V8's young generation, which then grows (1 MiB batches: ~20 MB
 * more heap on 100k files).
 */
const BATCH = 1 << 16;

/**
 * Writes pieces of text (a report as it is made) to stdout in batches of about 1 MiB, with writeStdout. After a
 * piece a closed pipe refused, the rest is made but dropped, as writeStdout drops it (the exit code still
 * counts every file).
 */
export function writePieces(pieces: Iterable<string>): void {
  let batch = '';
  let open = true;
  for (const piece of pieces) {
    if (!open) continue;
    batch += piece;
    if (batch.length < BATCH) continue;
    open = writeStdout(batch);
    batch = '';
  }
  if (open && batch !== '') writeStdout(batch);
}
