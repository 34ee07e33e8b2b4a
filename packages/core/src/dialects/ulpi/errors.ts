import { CkptError } from '../../errors.js';
import { secretInValue } from '../../text/secrets.js';

/** A usage or parse error of a ulpi verb: exit 1, as the original `checkpoint.mjs`. */
export function ulpiUsage(message: string, cause?: unknown): CkptError {
  return new CkptError('USAGE', message, { exitCode: 1, ...(cause !== undefined ? { cause } : {}) });
}

/** A refusal that protects the checkpoint: exit 2, the file left byte-identical. */
export function ulpiRefusal(message: string): CkptError {
  return new CkptError('REFUSED', message, { exitCode: 2 });
}

/**
 * Refuses (exit 2, nothing written) a free-text value or JSON input that looks like it holds a secret, naming the
 * field, where in the input, and the pattern kind, never the value (text/secrets.ts is the one table).
 */
export function refuseUlpiSecret(field: string, value: unknown): void {
  const found = secretInValue(value);
  if (!found) return;
  const where = found.pointer ? ` at ${found.pointer}` : '';
  throw ulpiRefusal(
    `${field}${where} looks like it holds a secret (${found.pattern.name}); nothing was written`,
  );
}
