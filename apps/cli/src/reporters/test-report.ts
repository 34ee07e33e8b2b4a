// Test helper (excluded from the build): a ValidationReport built by hand, with the summary computed.
import type { Finding, ValidationReport } from '@ckpt/core';

/** A finding with defaults for what a test does not care about. */
export function finding(over: Partial<Finding> & Pick<Finding, 'file'>): Finding {
  return {
    code: 'schema/enum',
    severity: 'error',
    message: 'status must be one of: running, completed',
    pointer: '/status',
    line: 9,
    column: 13,
    ...over,
  };
}

/** A report over files and their findings, its summary counted the way validateFiles counts. */
export function reportOf(files: Record<string, readonly Finding[]>, skipped = 0): ValidationReport {
  const list = Object.entries(files).map(([file, findings]) => ({ file, kind: 'team/task-event', findings }));
  const all = list.flatMap((f) => f.findings);
  const invalid = list.filter((f) => f.findings.some((x) => x.severity === 'error')).length;
  return {
    formatVersion: 1,
    files: list,
    summary: {
      files: list.length,
      valid: list.length - invalid,
      invalid,
      skipped,
      errors: all.filter((x) => x.severity === 'error').length,
      warnings: all.filter((x) => x.severity === 'warning').length,
      infos: all.filter((x) => x.severity === 'info').length,
    },
  };
}
