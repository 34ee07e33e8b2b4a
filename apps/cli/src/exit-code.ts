import { CkptError } from '@ckpt/core';
import { InputError, UsageError } from './usage-error.js';

/**
 * The one place an error becomes an exit code: known errors print one line (`ckpt: …`) on stderr, anything else
 * is an internal error (exit 70), with its stack only under CKPT_DEBUG. Never a stack trace for bad input.
 */
export function exitCodeFor(e: unknown): number {
  if (e instanceof UsageError || e instanceof InputError || e instanceof CkptError) {
    process.stderr.write(`ckpt: ${e.message}\n`);
    return e.exitCode;
  }
  process.stderr.write(`ckpt: internal error: ${(e as Error)?.message ?? String(e)}\n`);
  if (process.env.CKPT_DEBUG) process.stderr.write(`${(e as Error)?.stack ?? ''}\n`);
  return 70;
}
