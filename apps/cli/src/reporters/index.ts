import { redactSecretsIn, type ValidationReport } from '@ckpt/core';
import { githubReportPieces } from './github.js';
import { jsonReportPieces } from './json.js';
import { junitReporter } from './junit.js';
import type { Reporter, ReporterName, StreamReporter } from './reporter.js';
import { sarifReporter } from './sarif.js';
import { textReportPieces } from './text.js';

/** A reporter that needs the whole report first (counts in its header, rules before results): it is gathered. */
const whole = (r: Reporter): StreamReporter =>
  function* (stream, ctx) {
    const files = [...stream.files];
    const report: ValidationReport = { formatVersion: stream.formatVersion, files, summary: stream.summary };
    yield r(redactSecretsIn(report), ctx);
  };

/**
 * Every reporter sees the report with secret-looking values redacted (a finding may quote what a file holds).
 * Text, JSON and GitHub annotations are written as the report is made, each file redacted as it comes.
 */
export const reporters: Record<ReporterName, StreamReporter> = {
  text: textReportPieces,
  json: jsonReportPieces,
  github: githubReportPieces,
  junit: whole(junitReporter),
  sarif: whole(sarifReporter),
};
