import { escapeTerminal, type Tone } from '@ckpt/core';
import type { Colors } from '../../output/color.js';

/**
 * A value from a checkpoint made safe for a terminal: control characters (escape sequences could rewrite the
 * screen or the title) are shown as `\xNN` instead of being sent (core's `escapeTerminal`).
 */
export const safe = (value: string): string => escapeTerminal(value);

/** Paints a value in the colour of its tone. */
export function toned(c: Colors, tone: Tone, text: string): string {
  switch (tone) {
    case 'ok':
      return c.green(text);
    case 'active':
      return c.cyan(text);
    case 'warning':
      return c.yellow(text);
    case 'error':
      return c.red(text);
    default:
      return c.dim(text);
  }
}

/** Pads to a width, counting characters of the uncoloured text. */
export function pad(text: string, plain: string, width: number): string {
  return text + ' '.repeat(Math.max(1, width - plain.length));
}

/** Truncates long values for a one-line view, with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
