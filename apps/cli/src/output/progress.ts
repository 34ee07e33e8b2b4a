import { escapeTerminal } from '@ckpt/core';

/**
 * Progress on stderr for long work, only when stderr is a terminal and the work takes more than a moment.
 * Never writes to stdout, so data output stays clean.
 */
export function createProgress(label: string, enabled = Boolean(process.stderr.isTTY)) {
  const started = Date.now();
  let last = 0;
  let shown = false;
  return {
    update(done: number, total: number) {
      if (!enabled) return;
      const now = Date.now();
      if (now - started < 300 || now - last < 100) return;
      last = now;
      shown = true;
      process.stderr.write(`\r${label} ${done}/${total}\x1b[K`);
    },
    message(text: string) {
      if (!enabled) return;
      const now = Date.now();
      if (now - started < 300 || now - last < 100) return;
      last = now;
      shown = true;
      // The message names folders found on disk: their control characters are shown, not sent.
      process.stderr.write(`\r${escapeTerminal(text)}\x1b[K`);
    },
    done() {
      if (shown) process.stderr.write('\r\x1b[K');
    },
  };
}
