import { type Finding, findingAt } from '../../findings/finding.js';
import type { CheckedDocument } from '../dialect.js';
import { resumableCodes } from './codes.js';

export type Code = keyof typeof resumableCodes;

export const RUN_ID = /^[0-9]{8}T[0-9]{6}Z$/;

/** The versions of state.env and checklist.state.env ckpt reads. */
export const SUPPORTED_SCHEMA_VERSION = '1';

export function at(
  doc: CheckedDocument,
  key: string | undefined,
  code: Code,
  message: string,
  hint?: string,
): Finding {
  const loc =
    key === undefined || !doc.sourceMap ? { line: 1, column: 1 } : doc.sourceMap.locate(`/${key}`, 'key');
  return findingAt(doc.file, loc, {
    code,
    severity: resumableCodes[code].severity,
    message,
    pointer: key === undefined ? '' : `/${key}`,
    ...(hint ? { hint } : {}),
  });
}

export function inFile(file: string, line: number, code: Code, message: string): Finding {
  return findingAt(file, { line, column: 1 }, { code, severity: resumableCodes[code].severity, message });
}
