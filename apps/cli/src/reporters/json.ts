import {
  type FileResult,
  type Finding,
  redactSecrets,
  redactSecretsIn,
  stringifyJson,
  type ValidationStream,
} from '@ckpt/core';
import type { ReportContext, Reporter } from './reporter.js';

/** A value as `stringifyJson(…, 2)` writes it nested `pad` deep (its strings hold no raw line feed). */
const nested = (value: unknown, pad: string) => stringifyJson(value, 2).replaceAll('\n', `\n${pad}`);

/** How many elements are joined into one piece (few pieces; each stays small). */
const BATCH = 64;

/** An element of a top-level array member as the whole document writes it: two levels deep. */
const element = (value: unknown) => nested(value, '    ');

/** A top-level array member, a batch of elements at a time, as the items come (`text`: an element's text). */
function* arrayPieces<T>(items: Iterable<T>, text: (item: T) => string): Generator<string> {
  let piece = '';
  let n = 0;
  for (const item of items) {
    piece += `${n === 0 ? '[\n    ' : ',\n    '}${text(item)}`;
    if (++n % BATCH === 0) {
      yield piece;
      piece = '';
    }
  }
  if (piece !== '') yield piece;
  yield n === 0 ? '[]' : '\n  ]';
}

/**
 * The text of a file's entry without findings (most files), as `element` writes it after `redactSecretsIn`: the
 * display path is a name (never redacted), the kind is redacted as any other string, and stringifyJson escapes
 * each string by itself exactly as it does inside the whole entry. No object, list or copy per file.
 */
function cleanEntry(f: FileResult): string {
  const kind =
    f.kind === undefined || f.kind === null ? 'null' : isPlain(f) ? kindText(f.kind) : stringifyJson(f.kind);
  return `{\n      "file": ${stringifyJson(f.file)},\n      "kind": ${kind},\n      "valid": true,\n      "findings": []\n    }`;
}

/** The JSON text of each kind as redacted (a report holds a handful of kinds, each on thousands of files). */
const kindTexts = new Map<string, string>();

function kindText(kind: string): string {
  let text = kindTexts.get(kind);
  if (text === undefined) {
    text = stringifyJson(redactSecrets(kind));
    kindTexts.set(kind, text);
  }
  return text;
}

/** What `redactSecretsIn` walks into (it leaves any other object as it is). */
function isPlain(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
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
    if (raw.findings.length === 0) return cleanEntry(raw);
    const f = redactSecretsIn(raw);
    for (const x of f.findings) findings.push(x);
    return element({
      file: f.file,
      kind: f.kind ?? null,
      valid: !f.findings.some((x) => x.severity === 'error'),
      findings: f.findings,
    });
  });
  yield ',\n  "findings": ';
  yield* arrayPieces(findings, element);
  // The summary is complete once the files are written.
  yield `,\n  "summary": ${nested(redactSecretsIn(report.summary), '  ')}\n}\n`;
}

/** One versioned JSON document: formatVersion, tool, files, findings, summary (redacts by itself). */
export const jsonReporter: Reporter = (report, ctx) => {
  let out = '';
  for (const piece of jsonReportPieces(report, ctx)) out += piece;
  return out;
};
