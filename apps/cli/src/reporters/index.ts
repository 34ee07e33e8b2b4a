import { redactSecretsIn } from '@ckpt/core';
import { githubReporter } from './github.js';
import { jsonReporter } from './json.js';
import { junitReporter } from './junit.js';
import type { Reporter, ReporterName } from './reporter.js';
import { sarifReporter } from './sarif.js';
import { textReporter } from './text.js';

/** Every reporter sees the report with secret-looking values redacted: a finding may quote what a file holds. */
const redacting =
  (r: Reporter): Reporter =>
  (report, ctx) =>
    r(redactSecretsIn(report), ctx);

export const reporters: Record<ReporterName, Reporter> = {
  text: redacting(textReporter),
  json: jsonReporter, // redacts file by file (jsonReportPieces), so that it can be written as it is made
  github: redacting(githubReporter),
  junit: redacting(junitReporter),
  sarif: redacting(sarifReporter),
};
