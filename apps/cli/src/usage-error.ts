import type { Command } from 'commander';

/** A bad flag or argument: printed as one line, exit code 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/** Input that cannot be read (a missing path): exit code 3. */
export class InputError extends Error {
  readonly exitCode = 3;
}

/**
 * Commands that map their own usage errors to an exit code (the ulpi verbs keep the original's 1): main leaves
 * their exit override in place instead of resetting it to the global rule (exit 2).
 */
export const ownUsageExitCodes = new WeakSet<Command>();
