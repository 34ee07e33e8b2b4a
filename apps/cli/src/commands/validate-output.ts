import { writeSync } from 'node:fs';

/**
 * Writes the report to stdout synchronously, without creating `process.stdout` (a stream whose setup loads
 * several modules and, for a pipe, makes writes asynchronous). A reader that closed the pipe early (`| head`)
 * is not an error: the rest is dropped quietly instead of dying on EPIPE with a stack trace. A non-blocking
 * stdout (EAGAIN) falls back to the stream for what is left.
 */
export function writeStdout(text: string): void {
  const buf = Buffer.from(text);
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(1, buf, off, buf.length - off);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return;
      if (code === 'EAGAIN') {
        process.stdout.on('error', () => {});
        process.stdout.write(buf.subarray(off));
        return;
      }
      throw e;
    }
  }
}
