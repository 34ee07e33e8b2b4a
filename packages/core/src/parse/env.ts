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
const FINDINGS_PER_CODE = 100;
// Sticky twins of the patterns above, matched at an index of the line: never a slice of the rest of the line,
// so a line of many assignments (or one huge value) is read in linear time.
const KEY_AT = /[A-Za-z_][A-Za-z0-9_]*/y;
const WORD_AT = /[^\s]*/y;
const SPACE_AT = /\s*/y;
const ASSIGNMENT_AT = /[A-Za-z_][A-Za-z0-9_]*=/y;
const COMMENT_AFTER = /\s+#/g;
// Shell users write `export KEY=value`; the prefix changes nothing for a reader.
const EXPORT = /^export[ \t]+/;
// Characters a shell gives a meaning in an unquoted value (quoting, expansion, operators), so ckpt could not read
// the value as a shell does. A `#` is literal inside a word; after whitespace it starts a comment.
const SHELL_SPECIAL_CHARS = '"\'`\\$;&|<>()';
// A variable reference ($NAME, ${NAME}) is kept as written, as inside double quotes; `$(`, `$((` and a lone `$` are not.
const VARIABLE_AT = /\$(?:\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)/y;

function matchAt(re: RegExp, text: string, at: number): string | undefined {
  re.lastIndex = at;
  return re.exec(text)?.[0];
}

// A run of characters that are neither shell-special nor whitespace (a word never holds whitespace, so a scan of
// one word stops at its end instead of running on through the rest of the line).
const PLAIN_AT = /[^"'`\\$;&|<>()\s]*/y;

/** The index of the first character in text[from, to) a shell would read otherwise than ckpt, or -1. */
function specialIndex(text: string, from = 0, to = text.length): number {
  let i = from;
  for (;;) {
    PLAIN_AT.lastIndex = i;
    PLAIN_AT.exec(text);
    i = PLAIN_AT.lastIndex;
    if (i >= to) return -1;
    const c = text[i]!;
    if (c === '$') {
      const v = matchAt(VARIABLE_AT, text, i);
      if (v !== undefined && i + v.length <= to) {
        i += v.length;
        continue;
      }
    } else if (!SHELL_SPECIAL_CHARS.includes(c)) {
      i++; // whitespace inside the words after a value
      continue;
    }
    return i;
  }
}

interface Assignment {
  key: string;
  value: string;
  valueColumn: number;
  quoted: boolean;
  warning?: string;
}

type LineResult = { assignments: Assignment[] } | { error: string; column: number };

/** A value and the index just after it, or an error at a 0-based index. */
type ValueResult = { value: string; end: number } | { error: string; at: number };

function unquotedAt(line: string, from: number): ValueResult {
  const word = matchAt(WORD_AT, line, from)!;
  const bad = specialIndex(line, from, from + word.length);
  if (bad >= 0)
    return { error: `unquoted value contains ${JSON.stringify(line[bad])}; quote the value`, at: bad };
  return { value: word, end: from + word.length };
}

function singleQuotedAt(line: string, from: number): ValueResult {
  const end = line.indexOf("'", from + 1);
  if (end < 0) return { error: 'unterminated quoted value', at: from };
  return { value: line.slice(from + 1, end), end: end + 1 };
}

const DQ_SPECIAL = /["\\]/g;
const DQ_ESCAPE = /\\([\\"$`])/g;

// Inside double quotes a backslash escapes only what a shell lets it escape (\\ \" \$ \`); before anything
// else it is a literal backslash, as in the shell. The closing quote is found first, then the escapes are undone
// in one native replace: no per-character string building.
function doubleQuotedAt(line: string, from: number): ValueResult {
  DQ_SPECIAL.lastIndex = from + 1;
  let escaped = false;
  for (let m = DQ_SPECIAL.exec(line); m !== null; m = DQ_SPECIAL.exec(line)) {
    const i = m.index;
    if (m[0] === '"') {
      const body = line.slice(from + 1, i);
      return { value: escaped ? body.replace(DQ_ESCAPE, '$1') : body, end: i + 1 };
    }
    if (i + 1 < line.length && '\\"$`'.includes(line[i + 1]!)) {
      escaped = true;
      DQ_SPECIAL.lastIndex = i + 2;
    }
  }
  return { error: 'unterminated quoted value', at: from };
}

/**
 * One line: `KEY=value`, or several assignments separated by whitespace (`pid=1 host=a`, which a shell also
 * reads as assignments), then an optional `# comment`. An unquoted value followed by words that are not
 * assignments is read whole with a warning (a shell would run those words as a command). A NUL in a value is an
 * error: a shell cannot hold one in a variable, so the file would read differently there.
 */
function parseLine(raw: string): LineResult {
  let i = EXPORT.exec(raw)?.[0].length ?? 0;
  const assignments: Assignment[] = [];
  for (;;) {
    const key = matchAt(KEY_AT, raw, i);
    if (key === undefined)
      return {
        error: 'expected KEY=value (a key is letters, digits and _; it cannot start with a digit)',
        column: i + 1,
      };
    const eq = i + key.length;
    if (raw[eq] !== '=') return { error: `expected "=" after the key ${key}`, column: eq + 1 };
    const from = eq + 1;
    const open = raw[from];
    const quoted = open === '"' || open === "'";
    const r =
      open === '"'
        ? doubleQuotedAt(raw, from)
        : open === "'"
          ? singleQuotedAt(raw, from)
          : unquotedAt(raw, from);
    if ('error' in r) return { error: r.error, column: r.at + 1 };
    const nul = r.value.indexOf('\0');
    if (nul >= 0)
      return {
        error: `the value of ${key} contains a NUL byte, which a shell cannot hold`,
        column: from + 1,
      };
    const entry: Assignment = { key, value: r.value, valueColumn: from + 1, quoted };
    assignments.push(entry);
    const gap = matchAt(SPACE_AT, raw, r.end)!.length;
    const next = r.end + gap;
    if (next >= raw.length || (raw[next] === '#' && (gap > 0 || r.end === raw.length)))
      return { assignments };
    if (gap === 0)
      return {
        error: quoted ? 'unexpected text after the closing quote' : 'unexpected text after the value',
        column: r.end + 1,
      };
    ASSIGNMENT_AT.lastIndex = next;
    if (ASSIGNMENT_AT.test(raw)) {
      i = next;
      continue;
    }
    if (quoted) return { error: 'unexpected text after the closing quote', column: r.end + 1 };
    COMMENT_AFTER.lastIndex = r.end;
    const comment = COMMENT_AFTER.exec(raw);
    const tail = raw.slice(r.end, comment ? comment.index : raw.length);
    const words = tail.replace(/\s+$/, '');
    const bad = specialIndex(words);
    if (bad >= 0)
      return {
        error: `unquoted value contains ${JSON.stringify(words[bad])}; quote the value`,
        column: r.end + bad + 1,
      };
    if (words.indexOf('\0') >= 0)
      return {
        error: `the value of ${key} contains a NUL byte, which a shell cannot hold`,
        column: from + 1,
      };
    entry.value += words;
    entry.warning =
      'unquoted value contains a space: ckpt reads the whole value, a shell would not; quote it';
    return { assignments };
  }
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
  const firstLine = new Map<string, number>();
  // At most FINDINGS_PER_CODE findings of one code, then one that counts the rest: a 100 MB file of repeated
  // keys or bad lines would otherwise hold millions of findings.
  const perCode = new Map<string, { count: number; firstOmitted?: Finding }>();
  const report = (f: Finding) => {
    const c = perCode.get(f.code) ?? { count: 0 };
    perCode.set(f.code, c);
    if (++c.count <= FINDINGS_PER_CODE) findings.push(f);
    else c.firstOmitted ??= f;
  };
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
      report(
        findingAt(
          file,
          { line: n, column: r.column },
          { code: 'parse/invalid-env-line', severity: 'error', message: `line ${n}: ${r.error}` },
        ),
      );
      return;
    }
    for (const e of r.assignments) {
      if (e.warning)
        report(
          findingAt(
            file,
            { line: n, column: e.valueColumn },
            {
              code: 'parse/unquoted-space',
              severity: 'warning',
              pointer: `/${e.key}`,
              message: `line ${n}: ${e.warning}`,
            },
          ),
        );
      const first = firstLine.get(e.key);
      if (first !== undefined) {
        report(
          findingAt(
            file,
            { line: n, column: e.valueColumn - e.key.length - 1 },
            {
              code: 'parse/repeated-env-key',
              severity: 'warning',
              pointer: `/${e.key}`,
              message: `key "${e.key}" is set again (also on line ${first}): the last value counts, as when a shell sources the file`,
            },
          ),
        );
      } else firstLine.set(e.key, n);
      values[e.key] = e.value;
      entries.push({ key: e.key, value: e.value, line: n, valueColumn: e.valueColumn, quoted: e.quoted });
    }
  });
  for (const [code, c] of perCode)
    if (c.firstOmitted)
      findings.push({
        ...c.firstOmitted,
        message: `${c.count - FINDINGS_PER_CODE} more ${code} from line ${c.firstOmitted.line} on (only the first ${FINDINGS_PER_CODE} are listed)`,
      });
  const byKey = new Map(entries.map((e) => [e.key, e]));
  const sourceMap: SourceMap = {
    locate(pointer: string, part: 'value' | 'key' = 'value'): Location {
      const key = pointer.split('/')[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
      const e = key === undefined ? undefined : byKey.get(key);
      if (!e) return { line: 1, column: 1 };
      return { line: e.line, column: part === 'key' ? e.valueColumn - e.key.length - 1 : e.valueColumn };
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
