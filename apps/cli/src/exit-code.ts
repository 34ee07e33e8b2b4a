import { CkptError, escapeTerminal, redactSecrets, writeErrorOf } from '@ckpt/core';
import { errnoWhy, InputError, isInputErrno, UsageError, unreadable } from './usage-error.js';

/** A message names paths, ids and values from files and arguments: shown with no escape sequence or secret. */
const shown = (text: string) => escapeTerminal(redactSecrets(text));

/**
 * The one place an error becomes an exit code and a message (README "Exit codes"):
 * UsageError 2, InputError 3, CkptError its table's code (usage and refusals 2, not found or unreadable 3),
 * a write that could not land (no space, quota, read-only, permission denied or I/O error on a write) 4 in every
 * command, the ulpi verbs included, a file system error about a path (ENOENT, EACCES on a read, ...) 3; anything
 * else is an internal error, 70, with its stack
 * only under CKPT_DEBUG. Every message is `ckpt: <what>: <why>`, then `hint: <what to do>` when there is one.
 */
export function exitCodeFor(e: unknown): number {
  // Before the input rule: EACCES raised by a write is "could not write" (4), not "cannot read" (3).
  const write = writeErrorOf(e);
  if (write && write !== e) return exitCodeFor(write);
  if (isInputErrno(e)) {
    // Raised by a read or a write deep in a command: say which path and why, not the errno.
    const known = e.path ? unreadable(e.path, e) : undefined;
    return exitCodeFor(new InputError(`${e.path ?? 'a path'}: ${errnoWhy(e)}`, known?.hint));
  }
  if (e instanceof UsageError || e instanceof InputError || e instanceof CkptError) {
    process.stderr.write(`ckpt: ${shown(e.message)}\n`);
    const hint = (e as { hint?: string }).hint;
    if (hint) process.stderr.write(`hint: ${shown(hint)}\n`);
    return e.exitCode;
  }
  process.stderr.write(`ckpt: internal error: ${shown((e as Error)?.message ?? String(e))}\n`);
  process.stderr.write('hint: this is a bug in ckpt; run again with CKPT_DEBUG=1 and report the stack\n');
  if (process.env.CKPT_DEBUG) process.stderr.write(`${(e as Error)?.stack ?? ''}\n`);
  return 70;
}
