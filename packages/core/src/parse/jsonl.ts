import { type Finding, findingAt } from '../findings/finding.js';
import { type ParsedJson, parseJson } from './json.js';

/** One complete line of a JSONL file. */
export interface JsonlLine {
  readonly line: number;
  readonly parsed: ParsedJson;
}

/** A parsed JSONL file: complete lines, and the torn final fragment (no newline) when there is one. */
export interface ParsedJsonl {
  readonly lines: JsonlLine[];
  readonly tornTail: string | undefined;
  readonly findings: Finding[];
}

/**
 * Splits JSONL text into lines and parses each. A final fragment without a newline is a torn tail (what a crash
 * during an append leaves): reported as a warning and not parsed. Blank lines are skipped.
 */
export function parseJsonl(text: string, file: string): ParsedJsonl {
  const parts = text.split('\n');
  const tail = parts.pop()!;
  const tornTail = tail === '' ? undefined : tail;
  const lines: JsonlLine[] = [];
  const findings: Finding[] = [];
  parts.forEach((raw, idx) => {
    const content = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (content.trim() === '') return;
    const parsed = parseJson(content, file);
    const n = idx + 1;
    for (const f of parsed.findings) {
      findings.push({
        ...f,
        code: f.code === 'parse/invalid-json' ? 'parse/invalid-jsonl-line' : f.code,
        line: n,
        message: `line ${n}: ${f.message.replace(/ \(line \d+, column \d+\)$/, '')}`,
        ...(f.endLine !== undefined ? { endLine: n } : {}),
      });
    }
    lines.push({ line: n, parsed });
  });
  if (tornTail !== undefined) {
    findings.push(
      findingAt(
        file,
        { line: parts.length + 1, column: 1 },
        {
          code: 'parse/torn-jsonl-tail',
          severity: 'warning',
          message: `last line has no newline (${tornTail.length} bytes): a torn append that replay discards`,
        },
      ),
    );
  }
  return { lines, tornTail, findings };
}
