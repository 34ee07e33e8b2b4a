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
  /** True when no finding is an error. */
  readonly ok: boolean;
  readonly values: Record<string, string>;
  readonly entries: EnvEntry[];
  readonly comments: { line: number; text: string }[];
  readonly findings: Finding[];
  readonly sourceMap: SourceMap;
}

const KEY = /^[A-Za-z_][A-Za-z0-9_]*/;
// Shell users write `export KEY=value`; the prefix changes nothing for a reader.
const EXPORT = /^export[ \t]+/;
// Characters a shell gives a meaning in an unquoted value (quoting, expansion, operators), so ckpt could not read
// the value as a shell does. A `#` is literal inside a word; after whitespace it starts a comment.
const SHELL_SPECIAL = /["'`\\$;&|<>()]/;

type LineResult =
  | { key: string; value: string; valueColumn: number; quoted: boolean; warning?: string }
  | { error: string; column: number };

/** What may follow a value: nothing, or whitespace and a `#` comment (as a shell reads it). */
function trailingOk(tail: string): boolean {
  return tail.trim() === '' || /^\s+#/.test(tail);
}

function parseUnquoted(key: string, rest: string, start: number): LineResult {
  const comment = /\s+#/.exec(rest);
  const text = (comment ? rest.slice(0, comment.index) : rest).replace(/\s+$/, '');
  const bad = text.search(SHELL_SPECIAL);
  if (bad >= 0)
    return {
      error: `unquoted value contains ${JSON.stringify(text[bad])}; quote the value`,
      column: start + bad + 1,
    };
  const value = { key, value: text, valueColumn: start + 1, quoted: false };
  return /\s/.test(text)
    ? {
        ...value,
        warning: 'unquoted value contains a space: ckpt reads the whole value, a shell would not; quote it',
      }
    : value;
}

function parseSingleQuoted(key: string, rest: string, start: number): LineResult {
  const end = rest.indexOf("'", 1);
  if (end < 0) return { error: 'unterminated quoted value', column: start + 1 };
  if (!trailingOk(rest.slice(end + 1)))
    return { error: 'unexpected text after the closing quote', column: start + end + 2 };
  return { key, value: rest.slice(1, end), valueColumn: start + 1, quoted: true };
}

// Inside double quotes a backslash escapes only what a shell lets it escape (\\ \" \$ \`); before anything
// else it is a literal backslash, as in the shell.
function parseDoubleQuoted(key: string, rest: string, start: number): LineResult {
  let value = '';
  for (let i = 1; i < rest.length; i++) {
    const c = rest[i]!;
    if (c === '\\' && i + 1 < rest.length && '\\"$`'.includes(rest[i + 1]!)) {
      value += rest[i + 1];
      i++;
    } else if (c === '"') {
      if (!trailingOk(rest.slice(i + 1)))
        return { error: 'unexpected text after the closing quote', column: start + i + 2 };
      return { key, value, valueColumn: start + 1, quoted: true };
    } else value += c;
  }
  return { error: 'unterminated quoted value', column: start + 1 };
}

function parseLine(raw: string): LineResult {
  const prefix = EXPORT.exec(raw)?.[0] ?? '';
  const line = raw.slice(prefix.length);
  const shift = (r: LineResult): LineResult =>
    'error' in r
      ? { ...r, column: r.column + prefix.length }
      : { ...r, valueColumn: r.valueColumn + prefix.length };
  const m = KEY.exec(line);
  if (!m)
    return shift({
      error: 'expected KEY=value (a key is letters, digits and _; it cannot start with a digit)',
      column: 1,
    });
  const key = m[0];
  if (line[key.length] !== '=') {
    return shift({ error: `expected "=" after the key ${key}`, column: key.length + 1 });
  }
  const start = key.length + 1;
  const rest = line.slice(start);
  if (rest.startsWith('"')) return shift(parseDoubleQuoted(key, rest, start));
  if (rest.startsWith("'")) return shift(parseSingleQuoted(key, rest, start));
  return shift(parseUnquoted(key, rest, start));
}

/**
 * Parses the env format (FORMATS.md section 2) as shell users write it: `KEY=value`, `KEY="value"`, `KEY='value'`,
 * an optional `export ` prefix, a trailing `# comment` after whitespace, CRLF line ends. Never throws; every bad
 * line is a finding. `ok` is false only for errors (an unquoted value with a space is a warning).
 */
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
    if (r.warning)
      findings.push(
        findingAt(
          file,
          { line: n, column: r.valueColumn },
          {
            code: 'parse/unquoted-space',
            severity: 'warning',
            pointer: `/${r.key}`,
            message: `line ${n}: ${r.warning}`,
          },
        ),
      );
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
  return {
    ok: findings.every((f) => f.severity !== 'error'),
    values,
    entries,
    comments,
    findings,
    sourceMap,
  };
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
