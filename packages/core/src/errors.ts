/** Codes of the errors core throws for misuse or refused operations (bad input from files is a Finding instead). */
export const errorCodes = {
  USAGE: { exitCode: 2, title: 'bad arguments' },
  NOT_FOUND: { exitCode: 3, title: 'a run or file was not found' },
  UNREADABLE: { exitCode: 3, title: 'input could not be read' },
  REFUSED: { exitCode: 2, title: 'the operation was refused to protect the checkpoint' },
  LOCK_TIMEOUT: { exitCode: 2, title: 'another writer holds the lock' },
  LOCK_HELD: { exitCode: 2, title: 'an active lock is held by another process' },
  IO: { exitCode: 1, title: 'a write failed' },
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
