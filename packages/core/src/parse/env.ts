import { type Finding, findingAt, type Location } from '../findings/finding.js';
import type { SourceMap } from './source-map.js';

/** One `KEY=value` line of an env file. */
export interface EnvEntry {
  readonly key: string;
  readonly value: string;
  readonly line: number;
  /** 1-based column where the value (or its opening quote) starts. */
  readonly valueColumn: number;
  readonly quoted: boolean;
}

/** A parsed env file: the values (a null-prototype object), every entry in order, comments kept, findings. */
export interface ParsedEnv {
  readonly ok: boolean;
  readonly values: Record<string, string>;
  readonly entries: EnvEntry[];
  readonly comments: { line: number; text: string }[];
  readonly findings: Finding[];
  readonly sourceMap: SourceMap;
}

const KEY = /^[A-Za-z_][A-Za-z0-9_]*/;
// Unquoted values are a single shell word without quoting or expansion, so a shell reads them as ckpt does.
const UNQUOTED = /^[^\s"'`\\$#;&|<>()]*$/;

type LineResult =
  | { key: string; value: string; valueColumn: number; quoted: boolean }
  | { error: string; column: number };

function parseLine(line: string): LineResult {
  const m = KEY.exec(line);
  if (!m)
    return {
      error: 'expected KEY=value (a key is letters, digits and _; it cannot start with a digit)',
      column: 1,
    };
  const key = m[0];
  if (line[key.length] !== '=') {
    return { error: `expected "=" after the key ${key}`, column: key.length + 1 };
  }
  const start = key.length + 1;
  const rest = line.slice(start);
  if (!rest.startsWith('"')) {
    const trimmed = rest.replace(/\s+$/, '');
    if (!UNQUOTED.test(trimmed)) {
      const bad = trimmed.search(/[\s"'`\\$#;&|<>()]/);
      return {
        error: `unquoted value contains ${JSON.stringify(trimmed[bad])}; quote the value`,
        column: start + bad + 1,
      };
    }
    return { key, value: trimmed, valueColumn: start + 1, quoted: false };
  }
  let value = '';
  for (let i = 1; i < rest.length; i++) {
    const c = rest[i]!;
    if (c === '\\') {
      const e = rest[i + 1];
      if (e !== '\\' && e !== '"') {
        return {
          error: `invalid escape \\${e ?? ''} (only \\\\ and \\" are allowed)`,
          column: start + i + 1,
        };
      }
      value += e;
      i++;
    } else if (c === '"') {
      const tail = rest.slice(i + 1);
      if (tail.trim() !== '')
        return { error: 'unexpected text after the closing quote', column: start + i + 2 };
      return { key, value, valueColumn: start + 1, quoted: true };
    } else value += c;
  }
  return { error: 'unterminated quoted value', column: start + 1 };
}

/** Parses the strict env format (FORMATS.md section 2). Never throws; every bad line is a finding. */
export function parseEnv(text: string, file: string): ParsedEnv {
  const values: Record<string, string> = Object.create(null);
  const entries: EnvEntry[] = [];
  const comments: ParsedEnv['comments'] = [];
  const findings: Finding[] = [];
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  lines.forEach((raw, idx) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const n = idx + 1;
    const trimmed = line.trim();
    if (trimmed === '') return;
    if (trimmed.startsWith('#')) {
      comments.push({ line: n, text: line });
      return;
    }
    const r = parseLine(line);
    if ('error' in r) {
      findings.push(
        findingAt(
          file,
          { line: n, column: r.column },
          { code: 'parse/invalid-env-line', severity: 'error', message: `line ${n}: ${r.error}` },
        ),
      );
      return;
    }
    if (r.key in values) {
      findings.push(
        findingAt(
          file,
          { line: n, column: 1 },
          {
            code: 'parse/duplicate-key',
            severity: 'error',
            pointer: `/${r.key}`,
            message: `duplicate key "${r.key}" (also on line ${entries.find((e) => e.key === r.key)!.line})`,
          },
        ),
      );
    }
    values[r.key] = r.value;
    entries.push({ key: r.key, value: r.value, line: n, valueColumn: r.valueColumn, quoted: r.quoted });
  });
  const byKey = new Map(entries.map((e) => [e.key, e]));
  const sourceMap: SourceMap = {
    locate(pointer: string, part: 'value' | 'key' = 'value'): Location {
      const key = pointer.split('/')[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
      const e = key === undefined ? undefined : byKey.get(key);
      if (!e) return { line: 1, column: 1 };
      return { line: e.line, column: part === 'key' ? 1 : e.valueColumn };
    },
  };
  return { ok: findings.length === 0, values, entries, comments, findings, sourceMap };
}

/** Quotes a value the way ckpt writes env files: always double-quoted, `\` and `"` escaped. */
export function quoteEnvValue(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * Writes an env file: an optional comment header, then keys sorted (code-point order), values quoted.
 * Values with a newline cannot be represented and are rejected.
 */
export function serializeEnv(
  values: Readonly<Record<string, string>>,
  header: readonly string[] = [],
): string {
  const keys = Object.keys(values).sort();
  for (const k of keys) {
    if (!KEY.test(k) || KEY.exec(k)![0] !== k) throw new Error(`invalid env key ${JSON.stringify(k)}`);
    if (/[\r\n]/.test(values[k]!)) throw new Error(`env value for ${k} contains a newline`);
  }
  const head = header.map((h) => (h.startsWith('#') ? h : `# ${h}`));
  return [...head, ...keys.map((k) => `${k}=${quoteEnvValue(values[k]!)}`)].join('\n') + '\n';
}
