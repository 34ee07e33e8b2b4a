import { compareFindings, type Finding } from '../findings/finding.js';

/** One file of the report: its display path, kind (undefined when unknown) and findings, sorted. */
export interface FileResult {
  readonly file: string;
  readonly kind: string | undefined;
  readonly findings: readonly Finding[];
}

/** Adds a tree rule's findings to the findings to merge, by file. */
export function addByFile(extra: Map<string, Finding[]>, findings: Iterable<Finding>): void {
  for (const f of findings) {
    const list = extra.get(f.file);
    if (list) list.push(f);
    else extra.set(f.file, [f]);
  }
}

/**
 * The per-file results (sorted by file, each file once) with the tree rules' findings merged in, one result per
 * file, sorted by file, and each file's findings sorted. A file that only tree rules name is added (no kind).
 * Files are found by binary search instead of keying many long paths in a map.
 */
export function withTreeFindings(results: FileResult[], extra: ReadonlyMap<string, Finding[]>): FileResult[] {
  let files = results;
  const added: FileResult[] = [];
  for (const [file, findings] of extra) {
    const at = indexOfFile(files, file);
    const prev = at >= 0 ? files[at] : undefined;
    const merged = { file, kind: prev?.kind, findings: dedupe([...(prev?.findings ?? []), ...findings]) };
    if (prev) files[at] = merged;
    else added.push(merged);
  }
  if (added.length > 0) files = files.concat(added).sort(byFile);
  for (let i = 0; i < files.length; i++) {
    const r = files[i]!;
    if (r.findings.length > 1) files[i] = { ...r, findings: [...r.findings].sort(compareFindings) };
  }
  return files;
}

export const byFile = (a: { file: string }, b: { file: string }) =>
  a.file < b.file ? -1 : a.file > b.file ? 1 : 0;

/** The index of `file` in results sorted by file, or -1. */
export function indexOfFile(files: readonly FileResult[], file: string, from = 0): number {
  let lo = from;
  let hi = files.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const f = files[mid]!.file;
    if (f === file) return mid;
    if (f < file) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const k = `${f.code}\0${f.pointer}\0${f.line}\0${f.column}\0${f.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
