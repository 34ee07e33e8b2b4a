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

/**
 * `displayUnder(dir)` for the entries of one folder (absolute, normalized, as the loaders build it): `name` ↦ how
 * `<folder>/<name>` shows. When the folder itself shows plainly, by concatenation: what `displayUnder` slices for a
 * name that is not empty, `.` or `..` and holds no `/` or backslash. Otherwise (and for such names) through
 * `displayUnder`.
 */
export function displayInFolder(dir: string, folder: string): (name: string) => string {
  const display = displayUnder(dir);
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  const base = folder.endsWith('/') ? folder : `${folder}/`;
  const slow = (name: string) => display(base + name);
  // The folder's part of what `displayUnder` tests, without its last `/` (which the name's part begins with).
  if (sep !== '/' || !base.startsWith(prefix) || ODD_SEGMENT.test(base.slice(prefix.length - 1, -1)))
    return slow;
  const shown = base.slice(prefix.length);
  return (name) =>
    name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\\')
      ? slow(name)
      : shown + name;
}
