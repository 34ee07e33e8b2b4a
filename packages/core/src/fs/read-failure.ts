import { lstatSync } from 'node:fs';
import { type Finding, findingAt } from '../findings/finding.js';
import { ReadRefusedError } from './read-checkpoint.js';

/** Why a checkpoint could not be read, as a finding code and words without the path. */
export interface ReadFailure {
  readonly code: string;
  readonly reason: string;
}

const WHY: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is not a directory',
  ENAMETOOLONG: 'the path is too long',
  EIO: 'an I/O error',
};

function isDanglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Describes an error of reading `path`: a refusal keeps its code (`io/not-a-regular-file`, `io/too-large`,
 * `io/outside-project`); ELOOP is a symlink loop (not "no such file"); ENOENT says whether a dangling symlink is
 * in the way; anything else is `io/unreadable` with the system's reason.
 */
export function readFailure(path: string, e: unknown): ReadFailure {
  if (e instanceof ReadRefusedError) return { code: e.findingCode, reason: e.reason };
  const errno = (e as NodeJS.ErrnoException)?.code;
  if (errno === 'ELOOP')
    return { code: 'io/symlink-loop', reason: 'is a symbolic link loop (too many levels of symbolic links)' };
  if (errno === 'ENOENT')
    return isDanglingLink(path)
      ? { code: 'io/unreadable', reason: 'is a dangling symbolic link (its target does not exist)' }
      : { code: 'io/unreadable', reason: 'does not exist' };
  if (errno === 'EISDIR')
    return { code: 'io/not-a-regular-file', reason: 'is a directory, not a regular file' };
  return { code: 'io/unreadable', reason: (errno && WHY[errno]) ?? `cannot be read: ${errno ?? String(e)}` };
}

/** The finding for a file that could not be read (line 1, column 1: there is no text to point into). */
export function readFailureFinding(path: string, file: string, e: unknown): Finding {
  const f = readFailure(path, e);
  return findingAt(
    file,
    { line: 1, column: 1 },
    { code: f.code, severity: 'error', message: `${file.split('/').pop()} ${f.reason}` },
  );
}
