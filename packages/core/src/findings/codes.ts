import { dialects } from '../dialects/registry.js';
import type { CodeInfo, CodeTable } from './code-table.js';
import { genericCodes } from './generic-codes.js';

/** Every finding code ckpt can report: parse and schema codes, then each dialect's semantic codes. */
export function allCodes(): CodeTable {
  const table: Record<string, CodeInfo> = { ...genericCodes };
  for (const d of dialects) Object.assign(table, d.codes);
  return table;
}

/** The documentation of one code, or undefined for a code no table holds. */
export function codeInfo(code: string): CodeInfo | undefined {
  return allCodes()[code];
}
