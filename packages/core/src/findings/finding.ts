/** How bad a finding is: `error` fails `ckpt validate`, `warning` and `info` do not. */
export type Severity = 'error' | 'warning' | 'info';

/**
 * One problem in one file, at one place. Every check in ckpt (parse, schema, semantic rules) reports these;
 * bad input is never an exception.
 */
export interface Finding {
  /** Stable code from the code table, e.g. `schema/enum` or `team/stale-approval`. */
  readonly code: string;
  readonly severity: Severity;
  /** One line, written for people: what is wrong, with the offending value quoted. */
  readonly message: string;
  /** Path of the file, as given to (or found by) the checker. */
  readonly file: string;
  /** JSON Pointer (RFC 6901) of the value in the document; `''` for the whole document. */
  readonly pointer: string;
  /** 1-based line and column of the problem in the file. */
  readonly line: number;
  readonly column: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  /** What to do about it, when there is something to say. */
  readonly hint?: string;
}

/** Where a finding points in a file. */
export interface Location {
  readonly line: number;
  readonly column: number;
  readonly endLine?: number;
  readonly endColumn?: number;
}

export const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Sorts findings by file, line, column, then code, so every front-end prints them in the same order. */
export function compareFindings(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

/** Builds a finding at a location. */
export function findingAt(
  file: string,
  loc: Location,
  fields: { code: string; severity: Severity; message: string; pointer?: string; hint?: string },
): Finding {
  return {
    code: fields.code,
    severity: fields.severity,
    message: fields.message,
    file,
    pointer: fields.pointer ?? '',
    line: loc.line,
    column: loc.column,
    ...(loc.endLine !== undefined ? { endLine: loc.endLine, endColumn: loc.endColumn } : {}),
    ...(fields.hint !== undefined ? { hint: fields.hint } : {}),
  };
}
