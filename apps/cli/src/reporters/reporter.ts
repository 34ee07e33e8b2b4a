import type { ValidationReport, ValidationStream } from '@ckpt/core';
import type { Colors } from '../output/color.js';

export const reporterNames = ['text', 'json', 'github', 'junit', 'sarif'] as const;
export type ReporterName = (typeof reporterNames)[number];

export interface ReportContext {
  readonly colors: Colors;
  readonly quiet: boolean;
  readonly toolVersion: string;
}

/** A reporter turns a validation report into the text printed on stdout. */
export type Reporter = (report: ValidationReport, ctx: ReportContext) => string;

/** A reporter that writes a report as it is made, in pieces (each file's as it comes). */
export type StreamReporter = (report: ValidationStream, ctx: ReportContext) => Iterable<string>;

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function joinPieces(pieces: Iterable<string>): string {
  let out = '';
  for (const piece of pieces) out += piece;
  return out;
}
