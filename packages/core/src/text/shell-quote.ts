/** Bytes that need no quoting in a POSIX shell word. */
const BARE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * A POSIX `sh` word that stands for exactly `arg` (a string, or the raw bytes of a file name). Printable text goes
 * inside single quotes (`'` as `'\''`); a line feed too (quoted, it is data). Every other control character, the
 * bidirectional controls and bytes that are not UTF-8 are written as octal escapes of `printf`
 * (`"$(printf '\033')"`), so the printed command holds nothing a terminal acts on and still names the same bytes.
 */
export function shellQuote(arg: string | Uint8Array): string {
  if (typeof arg === 'string' && BARE.test(arg)) return arg;
  const bytes = typeof arg === 'string' ? Buffer.from(arg, 'utf8') : Buffer.from(arg);
  if (bytes.length === 0) return "''";
  const parts: string[] = [];
  let quoted = '';
  let escaped = '';
  const flush = () => {
    if (quoted) parts.push(`'${quoted.replace(/'/g, `'\\''`)}'`);
    if (escaped) parts.push(`"$(printf '${escaped}')"`);
    quoted = '';
    escaped = '';
  };
  for (let i = 0; i < bytes.length; ) {
    const n = utf8Length(bytes, i);
    const ch = n > 0 ? bytes.toString('utf8', i, i + n) : '';
    if (n > 0 && isPrintable(ch)) {
      if (escaped) flush();
      quoted += ch;
    } else {
      if (quoted) flush();
      for (let k = 0; k < Math.max(n, 1); k++) escaped += `\\${bytes[i + k]!.toString(8).padStart(3, '0')}`;
    }
    i += Math.max(n, 1);
  }
  flush();
  return parts.join('');
}

/** A command line of quoted words: `shellCommand(['rm', '--', name])`. */
export function shellCommand(words: readonly (string | Uint8Array)[]): string {
  return words.map(shellQuote).join(' ');
}

const UNPRINTABLE =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** A character kept as itself inside single quotes: anything but a control character (a line feed is kept). */
function isPrintable(ch: string): boolean {
  return !UNPRINTABLE.test(ch);
}

/** The length of the well-formed UTF-8 sequence at `i`, or 0 when the byte there starts none. */
function utf8Length(b: Uint8Array, i: number): number {
  const x = b[i]!;
  if (x < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < b.length && b[i + k]! >= lo && b[i + k]! <= hi;
  if (x >= 0xc2 && x <= 0xdf) return cont(1) ? 2 : 0;
  if (x >= 0xe0 && x <= 0xef) {
    const lo = x === 0xe0 ? 0xa0 : 0x80;
    const hi = x === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (x >= 0xf0 && x <= 0xf4) {
    const lo = x === 0xf0 ? 0x90 : 0x80;
    const hi = x === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}
