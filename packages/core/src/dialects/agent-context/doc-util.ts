import { basename, dirname } from 'node:path';
import { documentFinding } from '../../findings/document-finding.js';
import type { Finding } from '../../findings/finding.js';
import { valueText } from '../../text/value-text.js';
import type { CheckedDocument } from '../dialect.js';
import { type AgentContextCode, agentContextCodes } from './codes.js';

/** A plain JSON object, or undefined. */
export function obj(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

export function strings(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}

/** A finding of this dialect at a pointer of a document (its value's line, or its key's). */
export function findingIn(
  doc: Pick<CheckedDocument, 'file' | 'sourceMap'>,
  pointer: string,
  code: AgentContextCode,
  message: string,
  hint?: string,
): Finding {
  return documentFinding(agentContextCodes, doc, pointer, code, message, hint);
}

/** The directory name `up` levels above a file (1 = its own directory). */
export function dirNameAbove(path: string, up: number): string {
  let d = path;
  for (let i = 0; i < up; i++) d = dirname(d);
  return basename(d);
}

export const short = (hash: unknown): string =>
  typeof hash === 'string' ? hash.slice(0, 12) : valueText(hash);
