import { type Finding, findingAt } from '../findings/finding.js';
import { type ReadOptions, readCheckpointBytes, readRegularFileUtf8 } from '../fs/read-checkpoint.js';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of a file, or the finding that says why it has none. A leading BOM is stripped and reported. */
export interface DecodedText {
  readonly text: string | undefined;
  readonly findings: readonly Finding[];
}

/** No findings: shared by every text decoded without one (most), never added to. */
const NONE: readonly Finding[] = Object.freeze([]);

/** Decodes bytes as strict UTF-8: invalid bytes are a finding, never silently replaced. */
export function decodeUtf8(bytes: Uint8Array, file: string): DecodedText {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    const { line, column } = locateInvalidUtf8(bytes);
    return {
      text: undefined,
      findings: [
        findingAt(
          file,
          { line, column },
          {
            code: 'parse/invalid-utf8',
            severity: 'error',
            message: `invalid UTF-8 byte sequence at line ${line}, column ${column}`,
          },
        ),
      ],
    };
  }
  return withoutBom(text, file);
}

/**
 * Reads a checkpoint file as strict UTF-8, like `decodeUtf8(readFileSync(path))`, but only a regular file within
 * the size limit (fs/read-checkpoint.ts: opened non-blocking, fstat-checked, read from that descriptor into a
 * reused buffer). The bytes are decoded by Buffer's native UTF-8 decoding, which replaces invalid bytes with U+FFFD,
 * so only a text holding U+FFFD is read again and decoded strictly (a real U+FFFD in the file then decodes fine). I/O errors
 * and refusals (ReadRefusedError) are thrown; `readFailure` turns them into a finding.
 */
export function readUtf8File(path: string, file: string, opts?: ReadOptions): DecodedText {
  const text = readRegularFileUtf8(path, opts);
  if (text.indexOf('\uFFFD') === -1) return withoutBom(text, file);
  // Seldom (invalid UTF-8, or a real U+FFFD): the bytes are read again, to be decoded strictly.
  return decodeUtf8(readCheckpointBytes(path, opts), file);
}

function withoutBom(text: string, file: string): DecodedText {
  if (text.charCodeAt(0) === 0xfeff) {
    return {
      text: text.slice(1),
      findings: [
        findingAt(
          file,
          { line: 1, column: 1 },
          {
            code: 'parse/bom',
            severity: 'warning',
            message: 'file starts with a byte-order mark (U+FEFF), which JSON.parse rejects',
            hint: 'Rewrite the file as UTF-8 without a BOM.',
          },
        ),
      ],
    };
  }
  return { text, findings: NONE };
}

function locateInvalidUtf8(bytes: Uint8Array): { line: number; column: number } {
  // Decode progressively larger prefixes is quadratic; instead find the first byte the decoder cannot take.
  let line = 1;
  let column = 1;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const len =
      b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (len === 0 || i + len > bytes.length) break;
    try {
      decoder.decode(bytes.subarray(i, i + len));
    } catch {
      break;
    }
    if (b === 10) {
      line++;
      column = 1;
    } else column += len === 4 ? 2 : 1;
    i += len;
  }
  return { line, column };
}
