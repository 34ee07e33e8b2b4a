import {
  type FileResult,
  type Finding,
  redactSecretsIn,
  stringifyJson,
  type ValidationReport,
} from '@ckpt/core';
import type { ReportContext, Reporter } from './reporter.js';

/** A value as `stringifyJson(…, 2)` writes it nested `pad` deep (its strings hold no raw line feed). */
const nested = (value: unknown, pad: string) => stringifyJson(value, 2).replaceAll('\n', `\n${pad}`);

/** How many elements are written with one stringify call (fewer calls; each piece stays small). */
const BATCH = 512;

/** A top-level array member, a batch of elements at a time. */
function* arrayPieces<T>(items: readonly T[], shown: (item: T) => unknown): Generator<string> {
  if (items.length === 0) {
    yield '[]';
    return;
  }
  yield '[\n';
  for (let from = 0; from < items.length; from += BATCH) {
    const batch = items.slice(from, from + BATCH).map(shown);
    // `[\n  a,\n  b\n]` one level deeper is `    a,\n    b`: strip the brackets, indent every line by two more.
    const text = stringifyJson(batch, 2);
    yield `${from > 0 ? ',\n' : ''}  ${text.slice(2, -2).replaceAll('\n', '\n  ')}`;
  }
  yield '\n  ]';
}

/**
 * The JSON report (formatVersion, tool, files, findings, summary) in pieces, in order: their concatenation is
 * `stringifyJson(document, 2)` plus a line feed, with secret-looking values redacted. Each file is redacted and
 * written as it comes, so a caller that writes the pieces as they come never holds the whole text.
 */
export function* jsonReportPieces(
  report: ValidationReport,
  { toolVersion }: Pick<ReportContext, 'toolVersion'>,
): Generator<string> {
  const tool = { name: 'ckpt', version: toolVersion };
  yield `{\n  "formatVersion": ${nested(report.formatVersion, '  ')},\n  "tool": ${nested(tool, '  ')},\n  "files": `;
  // The flat list repeats the files' findings: kept as redacted here, they are redacted once.
  const findings: Finding[] = [];
  yield* arrayPieces(report.files, (raw: FileResult) => {
    const f = redactSecretsIn(raw);
    for (const x of f.findings) findings.push(x);
    return {
      file: f.file,
      kind: f.kind ?? null,
      valid: !f.findings.some((x) => x.severity === 'error'),
      findings: f.findings,
    };
  });
  yield ',\n  "findings": ';
  yield* arrayPieces(findings, (x) => x);
  yield `,\n  "summary": ${nested(redactSecretsIn(report.summary), '  ')}\n}\n`;
}

/** One versioned JSON document: formatVersion, tool, files, findings, summary (redacts by itself). */
export const jsonReporter: Reporter = (report, ctx) => {
  let out = '';
  for (const piece of jsonReportPieces(report, ctx)) out += piece;
  return out;
};
