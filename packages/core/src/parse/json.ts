import { type Finding, findingAt, type Location } from '../findings/finding.js';
import { countMembers, type JsonScan, MAX_DEPTH, scanJson } from './json-scanner.js';
import { LineIndex } from './line-index.js';
import type { SourceMap } from './source-map.js';

/** A parsed JSON document: its value (when it parsed), findings, and a source map built on demand. */
export interface ParsedJson {
  readonly ok: boolean;
  readonly value: unknown;
  readonly findings: Finding[];
  readonly sourceMap: SourceMap;
}

/** Counts members JSON.parse kept, walking iteratively; returns -1 when nesting exceeds MAX_DEPTH. */
function countParsedMembers(root: unknown): number {
  let n = 0;
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_DEPTH) return -1;
    if (Array.isArray(v)) for (const x of v) stack.push([x, depth + 1]);
    else
      for (const k in v) {
        n++;
        stack.push([(v as Record<string, unknown>)[k], depth + 1]);
      }
  }
  return n;
}

/** A source map over a JSON text; the scan runs only when a location is first asked for. */
export class JsonSourceMap implements SourceMap {
  private scanned: JsonScan | undefined;
  private index: LineIndex | undefined;

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

/** Parses JSON text. Never throws: syntax errors, duplicate keys and deep nesting become findings. */
export function parseJson(text: string, file: string): ParsedJson {
  const sourceMap = new JsonSourceMap(text);
  if (text.trim() === '') {
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
  const kept = countParsedMembers(value);
  if (kept === -1) {
    const f = findingAt(file, sourceMap.locate(''), {
      code: 'parse/too-deep',
      severity: 'error',
      message: `document nests deeper than ${MAX_DEPTH} levels`,
    });
    return { ok: false, value: undefined, findings: [f], sourceMap };
  }
  if (kept === countMembers(text)) return { ok: true, value, findings: [], sourceMap };
  const findings = sourceMap.scan.duplicates.map((d) => {
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
  return { ok: findings.length === 0, value, findings, sourceMap };
}
