/**
 * Characters a terminal may act on instead of showing: C0 controls (ESC starts every escape sequence, CR and LF
 * rewrite lines), DEL, C1 controls (U+009B is a one-character CSI) and the bidirectional overrides and isolates
 * that make text display in another order than it is stored (U+202E). Line and paragraph separators too.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_TEST = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const JSON_UNSAFE_TEST = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/**
 * What a string must not hold for its JSON text to be itself in quotes: what JSON.stringify escapes (`"`, `\`,
 * C0, lone surrogates: any surrogate here) and JSON_UNSAFE.
 */
const JSON_NOT_PLAIN =
  /["\\\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Whether a text holds a character a terminal could act on (see {@link escapeTerminal}). */
export function hasTerminalControl(text: string): boolean {
  return UNSAFE_TEST.test(text);
}

/**
 * A file-derived or argument-derived text made safe to print: every control character is shown as an escape
 * (`\x1b`, `\n`, `\u202e`) instead of being sent, so an escape sequence in a file name or an id is seen, never run.
 */
export function escapeTerminal(text: string): string {
  return UNSAFE_TEST.test(text) ? text.replace(UNSAFE, escapeChar) : text;
}

/**
 * A multi-line text built by ckpt made safe to print: like {@link escapeTerminal}, but line feeds and tabs (its
 * own layout) are kept.
 */
export function escapeTerminalLines(text: string): string {
  return UNSAFE_TEST.test(text)
    ? text.replace(UNSAFE, (c) => (c === '\n' || c === '\t' ? c : escapeChar(c)))
    : text;
}

/** Keys whose strings are shell commands ckpt built (arguments quoted by `shellQuote`: a line feed is quoted data). */
const COMMAND_KEYS: ReadonlySet<string> = new Set(['command', 'commands', 'shell', 'fix']);

/**
 * A copy of a JSON-like value with every string (keys too) passed through {@link escapeTerminal}; the value itself
 * when nothing needed escaping. Front ends apply it to the data they format as text, once, at the output boundary.
 * Shell commands (under `command`, `shell`, `fix`) keep their quoted line feeds, so they still run when pasted.
 */
export function forTerminal<T>(value: T): T {
  return mapStrings(value, (s, key) =>
    key !== undefined && COMMAND_KEYS.has(key) ? escapeTerminalLines(s) : escapeTerminal(s),
  );
}

interface Frame {
  readonly src: Record<string, unknown> | unknown[];
  readonly entries: [string, unknown][];
  /** The key the container sits under: what `map` is told for the strings of an array. */
  readonly key: string | undefined;
  i: number;
  out: Record<string, unknown> | unknown[] | undefined;
}

const isContainer = (v: unknown): v is Record<string, unknown> | unknown[] =>
  Array.isArray(v) || (v !== null && typeof v === 'object' && isPlain(v));

function frameOf(src: Record<string, unknown> | unknown[], key: string | undefined): Frame {
  const entries: [string, unknown][] = Array.isArray(src)
    ? src.map((v, i) => [String(i), v])
    : Object.entries(src);
  return { src, entries, key, i: 0, out: undefined };
}

/** Records a child's mapped value (and its mapped key) in its container, copying the container on first change. */
function settle(
  f: Frame,
  k: string,
  v: unknown,
  v2: unknown,
  map: (s: string, key: string | undefined) => string,
) {
  if (Array.isArray(f.src)) {
    if (v2 === v) return;
    f.out ??= f.src.slice();
    (f.out as unknown[])[Number(k)] = v2;
    return;
  }
  const k2 = map(k, undefined);
  if (k2 === k && v2 === v) return;
  f.out ??= { ...f.src };
  const out = f.out as Record<string, unknown>;
  if (k2 !== k) delete out[k];
  out[k2] = v2;
}

/** Below this depth the walk recurses (fast); a subtree deeper than this is walked with an explicit stack. */
const RECURSION_LIMIT = 400;

type StringMap = (s: string, key: string | undefined) => string;

/**
 * A copy of a JSON-like value with `map` applied to every string (told the key it sits under); shares every part
 * `map` left unchanged. A document nested thousands deep cannot exhaust the stack.
 */
export function mapStrings<T>(value: T, map: StringMap, key?: string): T {
  return mapShallow(value, map, key, 0);
}

function mapShallow<T>(value: T, map: StringMap, key: string | undefined, depth: number): T {
  if (typeof value === 'string') return map(value, key) as T;
  if (value === null || typeof value !== 'object') return value;
  if (depth > RECURSION_LIMIT) return mapDeep(value, map, key);
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = mapShallow(value[i], map, key, depth + 1);
      if (v === value[i]) continue;
      out ??= value.slice();
      out[i] = v;
    }
    return (out ?? value) as T;
  }
  if (!isPlain(value)) return value;
  const src = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const k in src) {
    if (!Object.hasOwn(src, k)) continue;
    const v = src[k];
    const k2 = map(k, undefined);
    const v2 = mapShallow(v, map, k, depth + 1);
    if (k2 === k && v2 === v) continue;
    out ??= { ...src };
    if (k2 !== k) delete out[k];
    out[k2] = v2;
  }
  return (out ?? value) as T;
}

/** {@link mapStrings} with an explicit stack, for subtrees nested deeper than the recursion limit. */
function mapDeep<T>(value: T, map: StringMap, key: string | undefined): T {
  if (!isContainer(value)) return value;
  const stack: Frame[] = [frameOf(value, key)];
  let done: unknown;
  while (stack.length > 0) {
    const f = stack.at(-1)!;
    if (f.i >= f.entries.length) {
      stack.pop();
      done = f.out ?? f.src;
      const parent = stack.at(-1);
      if (parent) {
        const [k, v] = parent.entries[parent.i]!;
        settle(parent, k, v, done, map);
        parent.i++;
      }
      continue;
    }
    const [k, v] = f.entries[f.i]!;
    const childKey = Array.isArray(f.src) ? f.key : k;
    if (isContainer(v)) {
      stack.push(frameOf(v, childKey));
      continue;
    }
    settle(f, k, v, typeof v === 'string' ? map(v, childKey) : v, map);
    f.i++;
  }
  return done as T;
}

function isPlain(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * `JSON.stringify` whose output holds no raw control character: JSON already escapes C0, and this also writes DEL,
 * C1 and the bidirectional controls as `\uXXXX` (the same JSON value, safe to `cat` to a terminal).
 */
export function stringifyJson(value: unknown, space: number | undefined = 2): string {
  // A string with nothing to escape (a report's paths and kinds, nearly always) is itself in quotes: without
  // JSON.stringify's set-up and a second scan of its text (~1-2 us a call; 10k team files: ~10 ms).
  if (typeof value === 'string' && !JSON_NOT_PLAIN.test(value)) return `"${value}"`;
  const text = JSON.stringify(value, null, space);
  // JSON.stringify escaped C0 already; what is left can only stand inside a string, where `\uXXXX` means the same.
  return JSON_UNSAFE_TEST.test(text)
    ? text.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : text;
}
