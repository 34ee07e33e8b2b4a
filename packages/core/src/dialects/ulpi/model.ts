// Tolerant accessors over a parsed status document: bad input (null units, string dependsOn, `__proto__` keys)
// reads as something sensible instead of throwing, so every reader answers where the original crashes.

import { valueText } from '../../text/value-text.js';

/** A parsed status document, as read (any shape). */
export type UlpiDoc = Record<string, unknown>;

export const UNIT_STATES = ['pending', 'in_progress', 'done', 'blocked', 'dep_blocked'] as const;
export const PHASE_STATES = ['pending', 'running', 'done', 'blocked', 'skipped'] as const;
export const RUN_STATES = ['initializing', 'running', 'done', 'needs_attention', 'aborted'] as const;
/** Statuses `init` refuses to overwrite. */
export const LIVE_STATES: readonly string[] = ['running', 'needs_attention', 'initializing'];

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** An own property, never an inherited one (`constructor`, `__proto__`). */
export function own(obj: unknown, key: string): unknown {
  return isObject(obj) && Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Sets an own enumerable property, also for `__proto__` (plain assignment would change the prototype). */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (Object.hasOwn(obj, key)) obj[key] = value;
  else Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The units map as entries in key order; a non-object `units` reads as none. */
export function unitEntries(doc: unknown): [string, unknown][] {
  const units = own(doc, 'units');
  return isObject(units) ? Object.entries(units) : [];
}

/** A unit's status, or undefined for a null/non-object unit. */
export function unitStatus(unit: unknown): string | undefined {
  const s = own(unit, 'status');
  return typeof s === 'string' ? s : undefined;
}

/**
 * A unit's dependencies as strings. A string `dependsOn` (which crashes the original) counts as one dependency,
 * so a unit never becomes eligible by a typo; other non-arrays count as none.
 */
export function unitDeps(unit: unknown): string[] {
  const d = own(unit, 'dependsOn');
  if (typeof d === 'string') return d === '' ? [] : [d];
  return Array.isArray(d) ? d.filter((x) => x !== null && x !== undefined).map(valueText) : [];
}

export function str(obj: unknown, key: string): string | undefined {
  const v = own(obj, key);
  return typeof v === 'string' ? v : undefined;
}

/** Parses the CLI's ISO stamps and the jq fallback's compact `yyyymmddThhmmssZ`; NaN when neither. */
export function parseStamp(s: unknown): number {
  if (typeof s !== 'string') return Number.NaN;
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s);
  if (m) return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  return /^\d{4}-\d{2}-\d{2}T/.test(s) ? Date.parse(s) : Number.NaN;
}

/** ISO UTC without milliseconds, as the original stamps every write. */
export function isoStamp(ms: number = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** JSON Pointer of a key path. */
export function pointer(...keys: (string | number)[]): string {
  return keys.map((k) => `/${String(k).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
