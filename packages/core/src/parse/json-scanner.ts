/**
 * A position-aware JSON scanner. It builds no values (JSON.parse does that, faster); it finds where every value
 * and key sits, where the text stops being JSON, which keys are duplicated, and whether nesting is too deep.
 */

export const MAX_DEPTH = 256;

/** Where one value sits: its span, and for an object member the span of its key. */
export interface NodeSpan {
  readonly start: number;
  readonly end: number;
  readonly keyStart?: number;
  readonly keyEnd?: number;
}

export interface JsonScan {
  readonly spans: Map<string, NodeSpan>;
  readonly duplicates: { pointer: string; keyStart: number; keyEnd: number }[];
  readonly error?: { offset: number; message: string };
  readonly tooDeepAt?: number;
}

class ScanError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/** Escapes one reference token of a JSON Pointer (RFC 6901). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

const describe = (text: string, i: number): string =>
  i >= text.length ? 'end of file' : `character ${JSON.stringify(text[i])}`;

export function scanJson(text: string): JsonScan {
  const spans = new Map<string, NodeSpan>();
  const duplicates: JsonScan['duplicates'] = [];
  let i = 0;
  let tooDeepAt: number | undefined;

  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else return;
    }
  };

  const string = (): string => {
    const start = i;
    i++;
    let escaped = false;
    for (;;) {
      if (i >= text.length) throw new ScanError(start, 'unterminated string');
      const c = text.charCodeAt(i);
      if (c === 34) break;
      if (c < 0x20) throw new ScanError(i, 'control character in string (escape it)');
      if (c === 92) {
        escaped = true;
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
            throw new ScanError(i, 'invalid \\u escape');
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e))
          throw new ScanError(i, `invalid escape \\${e ?? ''}`);
        i += 2;
        continue;
      }
      i++;
    }
    i++;
    const raw = text.slice(start, i);
    return escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  };

  const number = () => {
    const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    m.lastIndex = i;
    const r = m.exec(text);
    if (!r || r[0] === '-' || r[0] === '') throw new ScanError(i, `unexpected ${describe(text, i)}`);
    i += r[0].length;
    const next = text[i];
    if (next !== undefined && /[0-9.eE+-]/.test(next)) throw new ScanError(i, 'invalid number');
  };

  const value = (pointer: string, depth: number, key?: { start: number; end: number }) => {
    ws();
    const start = i;
    const c = text[i];
    if (depth > MAX_DEPTH) {
      tooDeepAt ??= i;
      throw new ScanError(i, `nesting deeper than ${MAX_DEPTH} levels`);
    }
    if (c === '{') object(pointer, depth);
    else if (c === '[') array(pointer, depth);
    else if (c === '"') string();
    else if (c === 't' || c === 'f' || c === 'n') {
      const word = c === 't' ? 'true' : c === 'f' ? 'false' : 'null';
      if (text.startsWith(word, i)) i += word.length;
      else throw new ScanError(i, `unexpected ${describe(text, i)}`);
    } else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) number();
    else throw new ScanError(i, `unexpected ${describe(text, i)}, expected a value`);
    spans.set(pointer, key ? { start, end: i, keyStart: key.start, keyEnd: key.end } : { start, end: i });
  };

  const object = (pointer: string, depth: number) => {
    i++;
    const seen = new Set<string>();
    ws();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] !== '"') {
        const msg =
          text[i] === '}' ? 'trailing comma before "}"' : `unexpected ${describe(text, i)}, expected a key`;
        throw new ScanError(i, msg);
      }
      const keyStart = i;
      const key = string();
      const keyEnd = i;
      const child = `${pointer}/${escapePointerToken(key)}`;
      if (seen.has(key)) duplicates.push({ pointer: child, keyStart, keyEnd });
      seen.add(key);
      ws();
      if (text[i] !== ':')
        throw new ScanError(i, `unexpected ${describe(text, i)}, expected ":" after a key`);
      i++;
      value(child, depth + 1, { start: keyStart, end: keyEnd });
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return;
      }
      throw new ScanError(i, `unexpected ${describe(text, i)}, expected "," or "}"`);
    }
  };

  const array = (pointer: string, depth: number) => {
    i++;
    ws();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (let n = 0; ; n++) {
      ws();
      if (text[i] === ']') throw new ScanError(i, 'trailing comma before "]"');
      value(`${pointer}/${n}`, depth + 1);
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        return;
      }
      throw new ScanError(i, `unexpected ${describe(text, i)}, expected "," or "]"`);
    }
  };

  try {
    value('', 0);
    ws();
    if (i < text.length) throw new ScanError(i, `unexpected ${describe(text, i)} after the JSON value`);
  } catch (e) {
    if (!(e instanceof ScanError)) throw e;
    return { spans, duplicates, error: { offset: e.offset, message: e.message }, tooDeepAt };
  }
  return { spans, duplicates, tooDeepAt };
}

/**
 * Counts the object members in a JSON text (colons outside strings) without building anything.
 * Compared with the members JSON.parse kept, it tells cheaply whether a key was duplicated.
 */
export function countMembers(text: string): number {
  let n = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 58) n++;
  }
  return n;
}
