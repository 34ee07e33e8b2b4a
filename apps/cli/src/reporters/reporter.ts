import type { ValidationReport } from '@ckpt/core';
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

/** Findings a reporter shows: all, or only errors with --quiet. */
export function visibleFindings(report: ValidationReport, quiet: boolean) {
  return report.files
    .map((f) => ({ ...f, findings: quiet ? f.findings.filter((x) => x.severity === 'error') : f.findings }))
    .filter((f) => f.findings.length > 0);
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
