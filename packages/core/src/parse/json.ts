import { type Finding, findingAt, type Location } from '../findings/finding.js';
import { countMembers, type JsonScan, MAX_DEPTH, scanJson } from './json-scanner.js';
import { LineIndex } from './line-index.js';
import type { SourceMap } from './source-map.js';

/** A parsed JSON document: its value (when it parsed), findings, and a source map built on demand. */
export interface ParsedJson {
  readonly ok: boolean;
  readonly value: unknown;
  readonly findings: readonly Finding[];
  readonly sourceMap: SourceMap;
}

/** No findings: shared by every document that parses without one (most), never added to. */
const NONE: readonly Finding[] = Object.freeze([]);

/** Occurrences of `:` in a string (indexOf runs natively; a charCode loop in JS costs more). */
function colonsIn(s: string): number {
  let n = 0;
  for (let i = s.indexOf(':'); i !== -1; i = s.indexOf(':', i + 1)) n++;
  return n;
}

/** What `tally` counted (module state: one walk at a time, no result object per document). */
let members = 0;
let colons = 0;
let infinite = false;

/** Counts into the module state; false when a container nests at MAX_DEPTH or deeper. */
function tallyValue(v: unknown, depth: number): boolean {
  if (typeof v === 'string') {
    if (v.indexOf(':') !== -1) colons += colonsIn(v);
    return true;
  }
  if (v === null || typeof v !== 'object') {
    // JSON text has no Infinity: a non-finite number is a literal beyond a double's range (1e400).
    if (typeof v === 'number' && v - v !== 0) infinite = true;
    return true;
  }
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!tallyValue(v[i], depth + 1)) return false;
    return true;
  }
  for (const k in v) {
    members++;
    if (k.indexOf(':') !== -1) colons += colonsIn(k);
    if (!tallyValue((v as Record<string, unknown>)[k], depth + 1)) return false;
  }
  return true;
}

/**
 * Walks what JSON.parse kept (recursion is bounded: it stops at MAX_DEPTH): returns the number of object members,
 * or -1 when nesting exceeds MAX_DEPTH; the `:` inside keys and string values are left in `colons`, and whether a
 * number is non-finite in `infinite` (module state: no result object per document).
 */
function tally(root: unknown): number {
  members = 0;
  colons = 0;
  infinite = false;
  return tallyValue(root, 0) ? members : -1;
}

/** JSON Pointers of the non-finite numbers in a parsed value (only walked when tally saw one). */
function infinitePointers(root: unknown): string[] {
  const out: string[] = [];
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0) {
    const [v, p] = stack.pop()!;
    if (typeof v === 'number' && v - v !== 0) out.push(p);
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v))
        stack.push([x, `${p}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
  }
  return out.sort();
}

/**
 * True when JSON.parse kept every member of the text (no duplicate key was dropped). Outside strings, a `:`
 * in JSON text only separates a member; so without escapes (where a string's text is its value) the text's `:`
 * count equals kept members plus the `:` in kept strings exactly when nothing was dropped. With escapes, fall
 * back to counting members with the scanner.
 */
function keptEveryMember(text: string, keptMembers: number, keptColons: number): boolean {
  if (text.indexOf('\\') === -1) return colonsIn(text) === keptMembers + keptColons;
  return keptMembers === countMembers(text);
}

/** Space, tab, line feed, carriage return: the whitespace JSON allows around values. */
const isJsonSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

/** A source map over a JSON text; the scan runs only when a location is first asked for. */
export class JsonSourceMap implements SourceMap {
  private scanned: JsonScan | undefined;
  private index: LineIndex | undefined;
  /**
   * Set by parseJson when JSON.parse read the whole text and it nests within MAX_DEPTH (so the scanner would find
   * no error): the root value then spans the text between its leading and trailing JSON whitespace, and a finding
   * on the whole document (pointer '') is placed without a scan.
   */
  parsed = false;

  constructor(private readonly text: string) {}

  get scan(): JsonScan {
    this.scanned ??= scanJson(this.text);
    return this.scanned;
  }

  get lines(): LineIndex {
    this.index ??= new LineIndex(this.text);
    return this.index;
  }

  locate(pointer: string, part: 'value' | 'key' = 'value'): Location {
    if (pointer === '' && this.parsed && this.scanned === undefined) {
      const t = this.text;
      let start = 0;
      let end = t.length;
      while (isJsonSpace(t.charCodeAt(start))) start++;
      while (isJsonSpace(t.charCodeAt(end - 1))) end--;
      return this.lines.span(start, end);
    }
    let p = pointer;
    for (;;) {
      const span = this.scan.spans.get(p);
      if (span) {
        if (part === 'key' && span.keyStart !== undefined && p === pointer)
          return this.lines.span(span.keyStart, span.keyEnd!);
        return this.lines.span(span.start, span.end);
      }
      if (p === '') return { line: 1, column: 1 };
      p = p.slice(0, p.lastIndexOf('/'));
    }
  }
}

/**
 * The source map of a text known to be one JSON document nesting within MAX_DEPTH (`provedByLayout`): as parseJson
 * leaves it for such a text.
 */
export function parsedSourceMap(text: string): JsonSourceMap {
  const sourceMap = new JsonSourceMap(text);
  sourceMap.parsed = true;
  return sourceMap;
}

/** Parses JSON text. Never throws: syntax errors, duplicate keys and deep nesting become findings. */
export function parseJson(text: string, file: string): ParsedJson {
  const sourceMap = new JsonSourceMap(text);
  // \S is exactly what trim() keeps, and the test stops at the first such character instead of copying the text.
  if (!/\S/.test(text)) {
    const f = findingAt(
      file,
      { line: 1, column: 1 },
      { code: 'parse/empty-file', severity: 'error', message: 'file is empty' },
    );
    return { ok: false, value: undefined, findings: [f], sourceMap };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const scan = sourceMap.scan;
    const err = scan.error ?? { offset: text.length, message: 'invalid JSON' };
    const deep = scan.tooDeepAt !== undefined;
    const loc = sourceMap.lines.span(err.offset, err.offset);
    const f = findingAt(file, loc, {
      code: deep ? 'parse/too-deep' : 'parse/invalid-json',
      severity: 'error',
      message: `invalid JSON: ${err.message} (line ${loc.line}, column ${loc.column})`,
    });
    return { ok: false, value: undefined, findings: [f], sourceMap };
  }
  const keptMembers = tally(value);
  const keptColons = colons;
  const nonFinite = infinite;
  if (keptMembers === -1) {
    const f = findingAt(file, sourceMap.locate(''), {
      code: 'parse/too-deep',
      severity: 'error',
      message: `document nests deeper than ${MAX_DEPTH} levels`,
    });
    return { ok: false, value: undefined, findings: [f], sourceMap };
  }
  sourceMap.parsed = true;
  const ranged: readonly Finding[] = !nonFinite
    ? NONE
    : infinitePointers(value).map((pointer) =>
        findingAt(file, sourceMap.locate(pointer), {
          code: 'parse/number-out-of-range',
          severity: 'error',
          pointer,
          message: `number at ${pointer || '/'} is out of range (beyond ±1.8e308): JSON.parse reads it as ±Infinity and JSON.stringify writes it back as null`,
        }),
      );
  if (keptEveryMember(text, keptMembers, keptColons))
    return { ok: ranged.length === 0, value, findings: ranged, sourceMap };
  const duplicates = sourceMap.scan.duplicates.map((d) => {
    const key = d.pointer
      .slice(d.pointer.lastIndexOf('/') + 1)
      .replace(/~1/g, '/')
      .replace(/~0/g, '~');
    return findingAt(file, sourceMap.lines.span(d.keyStart, d.keyEnd), {
      code: 'parse/duplicate-key',
      severity: 'error',
      pointer: d.pointer,
      message: `duplicate key "${key}": JSON.parse keeps only the last value`,
    });
  });
  const findings = [...duplicates, ...ranged];
  return { ok: findings.length === 0, value, findings, sourceMap };
}
