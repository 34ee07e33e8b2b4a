import type { Severity } from './finding.js';

/** The documentation of one finding code: what it means and what to do about it. */
export interface CodeInfo {
  readonly severity: Severity;
  /** One line: what the code means. */
  readonly title: string;
  /** Why it matters and what to do. */
  readonly explanation: string;
}

/** A table of codes, one per dialect (and one for parse/schema findings). */
export type CodeTable = Readonly<Record<string, CodeInfo>>;

/** Declares a code table, keeping the literal code names for type checks. */
export function defineCodes<T extends Record<string, CodeInfo>>(table: T): T {
  return table;
}
