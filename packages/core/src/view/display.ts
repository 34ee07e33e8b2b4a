import { relative, sep } from 'node:path';

/** An empty, `.` or `..` segment, a trailing `/`, or a backslash: cases `relative` normalizes or rewrites. */
const ODD_SEGMENT = /\/\.{0,2}(?:\/|$)|\\/;

/**
 * How a path shows relative to the project directory (`/` separators, `.` for the directory itself). A path the
 * loaders built under it (normalized, POSIX) is sliced, not passed through `relative` (100k event files). A pure
 * function of `dir`: a worker thread given the same `dir` shows every path as this thread does.
 */
export function displayUnder(dir: string): (abs: string) => string {
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  const slow = (abs: string) => relative(dir, abs).replace(/\\/g, '/') || '.';
  if (sep !== '/') return slow;
  return (abs) =>
    abs.startsWith(prefix) && !ODD_SEGMENT.test(abs.slice(prefix.length - 1))
      ? abs.slice(prefix.length)
      : slow(abs);
}
