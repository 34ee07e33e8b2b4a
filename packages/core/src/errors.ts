/** Codes of the errors core throws for misuse or refused operations (bad input from files is a Finding instead). */
export const errorCodes = {
  USAGE: { exitCode: 2, title: 'bad arguments' },
  NOT_FOUND: { exitCode: 3, title: 'a run or file was not found' },
  UNREADABLE: { exitCode: 3, title: 'input could not be read' },
  REFUSED: { exitCode: 2, title: 'the operation was refused to protect the checkpoint' },
  LOCK_TIMEOUT: { exitCode: 2, title: 'another writer holds the lock' },
  LOCK_HELD: { exitCode: 2, title: 'an active lock is held by another process' },
  IO: { exitCode: 1, title: 'a write failed' },
  WRITE: {
    exitCode: 4,
    title: 'a file could not be written (no space, no permission, read-only, quota, I/O)',
  },
} as const;

export type ErrorCode = keyof typeof errorCodes;

/** An error with a code from the table above; the CLI maps it to an exit code and a one-line message. */
export class CkptError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown; exitCode?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CkptError';
    this.exitCode = options?.exitCode ?? errorCodes[code].exitCode;
  }

  readonly exitCode: number;
}

/**
 * The errno codes that say a write could not land, in words (the message names the reason, not the errno).
 * ENOSPC, EDQUOT, EROFS and EFBIG only ever come from writing; EACCES, EPERM and EIO count only when the system
 * call that failed was a write (the file-system layer marks those, see `markWriteFailure`).
 */
export const WRITE_FAILURE_WHY: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'the file system is read-only',
  EFBIG: 'the file would exceed the maximum file size',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'input/output error',
};

const WRITE_ONLY_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EFBIG']);
const WRITE_MARK = Symbol.for('ckpt.writeFailure');

const hintFor = (code: string, path: string): string => {
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG')
    return 'free some space (or raise the quota or file size limit) and run the command again';
  if (code === 'EROFS')
    return `${path} is on a read-only file system: run ckpt where the project is writable`;
  if (code === 'EACCES' || code === 'EPERM') return `give yourself write access to ${path} (or its folder)`;
  return 'check the disk and run the command again';
};

/** A write that did not land: exit 4, `could not write <path>: <reason>`, the errno kept as `errno`. */
export class WriteError extends CkptError {
  constructor(
    readonly path: string,
    readonly errno: string,
    options: { cause?: unknown; detail?: string } = {},
  ) {
    super(
      'WRITE',
      `could not write ${path}: ${WRITE_FAILURE_WHY[errno] ?? errno}${options.detail ? ` (${options.detail})` : ''}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'WriteError';
    this.hint = hintFor(errno, path);
  }

  readonly hint: string;
}

const errnoOf = (e: unknown): string | undefined => {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** Marks a system error raised by a writing call (mkdir, open for writing, write, rename...), with its path. */
export function markWriteFailure(e: unknown, path?: string): void {
  if (e === null || typeof e !== 'object') return;
  try {
    Object.defineProperty(e, WRITE_MARK, { value: true, enumerable: false, configurable: true });
    if (path !== undefined && (e as NodeJS.ErrnoException).path === undefined)
      (e as NodeJS.ErrnoException).path = path;
  } catch {
    // A frozen error keeps its plain meaning.
  }
}

/**
 * The WriteError an error stands for, or undefined: a WriteError itself, an errno that only writes raise
 * (ENOSPC, EDQUOT, EROFS, EFBIG), or EACCES/EPERM/EIO raised by a call the file-system layer marked as a write.
 * `path` names the file the caller was writing when the error has none (or only a temp file's).
 */
export function writeErrorOf(
  e: unknown,
  path?: string,
  o: { writing?: boolean } = {},
): WriteError | undefined {
  if (e instanceof WriteError) return e;
  if (e instanceof CkptError) return undefined;
  const code = errnoOf(e);
  if (code === undefined || !Object.hasOwn(WRITE_FAILURE_WHY, code)) return undefined;
  const marked = (e as Record<symbol, unknown>)[WRITE_MARK] === true;
  if (!WRITE_ONLY_CODES.has(code) && !marked && !o.writing) return undefined;
  const where = path ?? (e as NodeJS.ErrnoException).path ?? 'a file';
  return new WriteError(where, code, { cause: e });
}

/**
 * For a caller that was writing `path`: the WriteError a failure stands for (any of the write errnos, marked or
 * not); anything else (EEXIST, ENOENT, an injected crash) unchanged, for the caller's own handling.
 */
export function asWriteError(e: unknown, path: string): unknown {
  return writeErrorOf(e, path, { writing: true }) ?? e;
}
