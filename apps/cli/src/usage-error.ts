/** A bad flag or argument: printed as one line, exit code 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/** Input that cannot be read (a missing path): exit code 3. */
export class InputError extends Error {
  readonly exitCode = 3;
}
