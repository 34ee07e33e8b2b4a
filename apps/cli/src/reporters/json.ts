import { stringifyJson } from '@ckpt/core';
import type { Reporter } from './reporter.js';

/** One versioned JSON document: formatVersion, tool, files, findings, summary. */
export const jsonReporter: Reporter = (report, { toolVersion }) => {
  const findings = report.files.flatMap((f) => f.findings);
  return `${stringifyJson(
    {
      formatVersion: report.formatVersion,
      tool: { name: 'ckpt', version: toolVersion },
      files: report.files.map((f) => ({
        file: f.file,
        kind: f.kind ?? null,
        valid: !f.findings.some((x) => x.severity === 'error'),
        findings: f.findings,
      })),
      findings,
      summary: report.summary,
    },
    2,
  )}\n`;
};
