import { ulpiUsage } from '@ckpt/core';

// `ckpt ulpi` reads its words the way the original checkpoint.mjs does, so scripts written for one work with the
// other: the verb, then the file, then the rest; positionals are the first words of the rest (flags before them
// are taken as positionals); an option's value is the word after its first occurrence; a word starting with `--`
// there means the value is missing; unknown flags and extra words are ignored.

/** The original's one usage line (no arguments, or a verb without a file). */
export const ULPI_USAGE =
  'usage: ckpt ulpi <init|unit|phase|get|resume|item|resolve|validation|finalize|gc> <file|runs-dir> ...';

/** The value of the first `name` in `rest`, `fallback` when absent; exit 1 when the next word is missing or a flag. */
export function optionValue(rest: readonly string[], name: string): string | undefined;
export function optionValue(rest: readonly string[], name: string, fallback: string): string;
export function optionValue(rest: readonly string[], name: string, fallback?: string): string | undefined {
  const i = rest.indexOf(name);
  if (i < 0) return fallback;
  const v = rest[i + 1];
  if (v === undefined || v.startsWith('--')) throw ulpiUsage(`option ${name} is missing its value`);
  return v;
}

/** A comma-separated list: trimmed, empty entries dropped. */
export const csv = (s: string | undefined): string[] =>
  (s ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

const HELP = new Set(['--help', '-h']);

/**
 * A request for ckpt's help page rather than a run of a verb: `ckpt ulpi --help`/`-h`/`help`, or `--help`/`-h`
 * right after a verb, where the original expects the file (it would try to read a file named `--help`).
 */
export function isUlpiHelpRequest(args: readonly string[]): boolean {
  const [first, second] = args;
  if (first === undefined) return false;
  if (HELP.has(first) || first === 'help') return true;
  return second !== undefined && HELP.has(second);
}
