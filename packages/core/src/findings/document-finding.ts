import type { CheckedDocument } from '../dialects/dialect.js';
import type { CodeTable } from './code-table.js';
import { type Finding, findingAt } from './finding.js';

/**
 * A finding of a dialect's code at a pointer of a document: its value's line and column (line 1 when the document
 * has no source map), with the severity the code table gives.
 */
export function documentFinding<T extends CodeTable>(
  table: T,
  doc: Pick<CheckedDocument, 'file' | 'sourceMap'>,
  pointer: string,
  code: keyof T & string,
  message: string,
  hint?: string,
): Finding {
  const loc = doc.sourceMap?.locate(pointer, 'value') ?? { line: 1, column: 1 };
  return findingAt(doc.file, loc, {
    code,
    severity: table[code]!.severity,
    message,
    pointer,
    ...(hint ? { hint } : {}),
  });
}
