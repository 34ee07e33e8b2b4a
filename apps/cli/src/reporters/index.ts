import { githubReporter } from './github.js';
import { jsonReporter } from './json.js';
import { junitReporter } from './junit.js';
import type { Reporter, ReporterName } from './reporter.js';
import { sarifReporter } from './sarif.js';
import { textReporter } from './text.js';

export const reporters: Record<ReporterName, Reporter> = {
  text: textReporter,
  json: jsonReporter,
  github: githubReporter,
  junit: junitReporter,
  sarif: sarifReporter,
};
