import { CkptError } from '../../errors.js';

/** A usage or parse error of a ulpi verb: exit 1, as the original `checkpoint.mjs`. */
export function ulpiUsage(message: string, cause?: unknown): CkptError {
  return new CkptError('USAGE', message, { exitCode: 1, ...(cause !== undefined ? { cause } : {}) });
}

/** A refusal that protects the checkpoint: exit 2, the file left byte-identical. */
export function ulpiRefusal(message: string): CkptError {
  return new CkptError('REFUSED', message, { exitCode: 2 });
}
