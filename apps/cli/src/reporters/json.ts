import {
  type FileResult,
  type Finding,
  redactSecretsIn,
  stringifyJson,
  type ValidationStream,
} from '@ckpt/core';
import type { ReportContext, Reporter } from './reporter.js';

/** A value as `stringifyJson(…, 2)` writes it nested `pad` deep (its strings hold no raw line feed). */
const nested = (value: unknown, pad: string) => stringifyJson(value, 2).replaceAll('\n', `\n${pad}`);

/** How many elements are written with one stringify call (fewer calls; each piece and batch stays small). */
const BATCH = 64;

/** A top-level array member, a batch of elements at a time, as the items come. */
function* arrayPieces<T>(items: Iterable<T>, shown: (item: T) => unknown): Generator<string> {
  let batch: unknown[] = [];
  let first = true;
  const flush = () => {
    // `[\n  a,\n  b\n]` one level deeper is `    a,\n    b`: strip the brackets, indent every line by two more.
    const text = stringifyJson(batch, 2);
    const piece = `${first ? '[\n' : ',\n'}  ${text.slice(2, -2).replaceAll('\n', '\n  ')}`;
    first = false;
    batch = [];
    return piece;
  };
  for (const item of items) {
    batch.push(shown(item));
    if (batch.length === BATCH) yield flush();
  }
  if (batch.length > 0) yield flush();
  yield first ? '[]' : '\n  ]';
}

/**
 * The JSON report (formatVersion, tool, files, findings, summary) in pieces, in order: their concatenation is
 * `stringifyJson(document, 2)` plus a line feed, with secret-looking values redacted. Each file is redacted and
 * written as it comes (a report being made: `validateCollected`), so a caller that writes the pieces as they come
 * never holds the whole text, nor the files' results; only the flat list of findings waits for the end.
 */
export function* jsonReportPieces(
  report: ValidationStream,
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
  // The summary is complete once the files are written.
  yield `,\n  "summary": ${nested(redactSecretsIn(report.summary), '  ')}\n}\n`;
}

/** One versioned JSON document: formatVersion, tool, files, findings, summary (redacts by itself). */
export const jsonReporter: Reporter = (report, ctx) => {
  let out = '';
  for (const piece of jsonReportPieces(report, ctx)) out += piece;
  return out;
};
