import { escapeTerminalLines, stringifyJson } from '@ckpt/core';

/** The colour sequences ckpt paints with (picocolors: `ESC [ n ; ... m`); nothing else may reach a terminal. */
const SGR = /(\x1b\[[0-9;]*m)/;

/**
 * The last guard before a terminal: ckpt's own colours, line feeds and tabs pass; any other control character
 * (a field a formatter forgot to escape) is shown as `\x1b`. Values are escaped before formatting (`forTerminal`);
 * this only makes a missed one harmless.
 */
export function terminalSafe(text: string): string {
  if (
    !/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(
      text,
    )
  )
    return text;
  return text
    .split(SGR)
    .map((part, i) => (i % 2 === 1 ? part : escapeTerminalLines(part)))
    .join('');
}

/** Writes formatted text to stdout through the guard. */
export function printText(text: string, stream: NodeJS.WritableStream = process.stdout): void {
  stream.write(terminalSafe(text));
}

/** Writes one JSON document (two-space indent, a final line feed) with no raw control character in it. */
export function printJson(value: unknown, stream: NodeJS.WritableStream = process.stdout): void {
  stream.write(`${stringifyJson(value)}\n`);
}

/** Writes a message line to stderr through the guard. */
export function printError(text: string): void {
  process.stderr.write(terminalSafe(text));
}
