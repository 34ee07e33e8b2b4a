import type { Command } from 'commander';

/** An error the CLI prints as `ckpt: <message>` and, when it has one, a `hint: <what to do>` line. */
abstract class CliError extends Error {
  abstract readonly exitCode: number;
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** A bad flag or argument, or a refusal: exit code 2. */
export class UsageError extends CliError {
  readonly exitCode = 2;
}

/** Input that is missing or cannot be read (a path, a run): exit code 3. */
export class InputError extends CliError {
  readonly exitCode = 3;
}

const ERRNO_WHY: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the path is too long',
};

/** The words for a file system error code (`ENOENT` → `no such file or directory`), for people not for errno. */
export function errnoWhy(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  return (code && ERRNO_WHY[code]) ?? (e as Error)?.message ?? String(e);
}

/** True for a file system error about the input (a missing or unreadable path), which is exit 3, not a crash. */
export function isInputErrno(e: unknown): e is NodeJS.ErrnoException {
  const code = (e as NodeJS.ErrnoException)?.code;
  return typeof code === 'string' && code in ERRNO_WHY;
}

/** The InputError for a path that could not be read: `cannot read <path>: <why>` and what to check. */
export function unreadable(path: string, e: unknown): InputError {
  const code = (e as NodeJS.ErrnoException)?.code;
  return new InputError(
    `cannot read ${path}: ${errnoWhy(e)}`,
    code === 'EACCES' || code === 'EPERM'
      ? `give yourself read access (chmod u+r ${path})`
      : 'check the path (it is relative to the current folder)',
  );
}

/**
 * Commands that map their own usage errors to an exit code (the ulpi verbs keep the original's 1): main leaves
 * their exit override in place instead of resetting it to the global rule (exit 2).
 */
export const ownUsageExitCodes = new WeakSet<Command>();
