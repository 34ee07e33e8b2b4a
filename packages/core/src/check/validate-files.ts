import type { CheckedDocument, TreeContext } from '../dialects/dialect.js';
import { getDialect } from '../dialects/registry.js';
import { compareFindings, type Finding } from '../findings/finding.js';
import { type CheckOptions, checkDocument } from './check-document.js';
import type { FileRef } from './collect-files.js';

/** Version of the JSON document `ckpt validate --reporter json` prints. */
export const VALIDATION_FORMAT_VERSION = 1;

export interface FileResult {
  readonly file: string;
  readonly kind: string | undefined;
  readonly findings: readonly Finding[];
}

export interface ValidationSummary {
  readonly files: number;
  readonly valid: number;
  readonly invalid: number;
  readonly skipped: number;
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
}

export interface ValidationReport {
  readonly formatVersion: number;
  readonly files: readonly FileResult[];
  readonly summary: ValidationSummary;
}

export interface ValidateOptions extends CheckOptions {
  /** Called after each file, for progress output. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** A context that serves tree rules the documents already checked, and checks any other file once. */
export function createTreeContext(
  opts: CheckOptions,
  display: (abs: string) => string,
  known = new Map<string, CheckedDocument>(),
): TreeContext & { known: Map<string, CheckedDocument> } {
  return {
    known,
    document(absPath) {
      let doc = known.get(absPath);
      if (!doc) {
        doc = checkDocument(absPath, display(absPath), { ...opts, sniff: true }) ?? {
          path: absPath,
          file: display(absPath),
          kind: undefined,
          text: undefined,
          value: undefined,
          usable: false,
          sourceMap: undefined,
          findings: [],
        };
        known.set(absPath, doc);
      }
      return doc;
    },
    display,
  };
}

/**
 * Validates files: each one through the per-file pipeline, then the tree rules of every dialect root they
 * belong to. Files that are not checkpoints are skipped and counted. Findings are sorted per file.
 */
export function validateFiles(refs: readonly FileRef[], opts: ValidateOptions = {}): ValidationReport {
  const byPath = new Map<string, CheckedDocument>();
  // Two option objects for the whole run, not one spread per file.
  const named: CheckOptions = { ...opts, sniff: true };
  const found: CheckOptions = { ...opts, sniff: false };
  let skipped = 0;
  for (let i = 0; i < refs.length; i++) {
    const ref = refs[i]!;
    const doc = checkDocument(ref.path, ref.file, ref.explicit ? named : found);
    if (doc) byPath.set(ref.path, doc);
    else skipped++;
    opts.onProgress?.(i + 1, refs.length);
  }
  const base = refs[0] ? { abs: refs[0].path, shown: refs[0].file } : undefined;
  let displayOf: Map<string, string> | undefined;
  const display = (abs: string) => {
    const doc = byPath.get(abs);
    if (doc) return doc.file;
    displayOf ??= new Map(refs.map((r) => [r.path, r.file]));
    return displayOf.get(abs) ?? relativeLike(abs, base);
  };
  // The tree context caches into byPath itself (no copy of a map of every document): the documents checked
  // above are its first `checked` entries, in order; those the tree rules read besides come after them.
  const checked = byPath.size;
  const ctx = createTreeContext(opts, display, byPath);
  const roots = new Map<string, string>();
  for (const doc of byPath.values()) {
    const dialect = doc.kind ? getDialect(doc.kind.split('/')[0]!) : undefined;
    const root = dialect?.rootOf?.(doc.path, doc.kind);
    if (dialect && root) roots.set(`${dialect.id}\0${root}`, root);
  }
  const extra = new Map<string, Finding[]>();
  for (const [key, root] of roots) {
    const dialect = getDialect(key.split('\0')[0]!)!;
    for (const f of dialect.checkTree?.(root, ctx) ?? []) {
      const list = extra.get(f.file) ?? [];
      list.push(f);
      extra.set(f.file, list);
    }
  }
  const results = new Map<string, FileResult>();
  let n = 0;
  for (const doc of byPath.values()) {
    if (n++ === checked) break;
    results.set(doc.file, { file: doc.file, kind: doc.kind, findings: doc.findings });
  }
  for (const [file, findings] of extra) {
    const prev = results.get(file);
    const merged = dedupe([...(prev?.findings ?? []), ...findings]);
    results.set(file, { file, kind: prev?.kind, findings: merged });
  }
  const files = [...results.values()]
    .map((r) => (r.findings.length > 1 ? { ...r, findings: [...r.findings].sort(compareFindings) } : r))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { formatVersion: VALIDATION_FORMAT_VERSION, files, summary: summarize(files, skipped) };
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const k = `${f.code}\0${f.pointer}\0${f.line}\0${f.column}\0${f.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Shows an absolute path the way the first checked file is shown (same prefix), for files found by tree rules. */
function relativeLike(abs: string, base: { abs: string; shown: string } | undefined): string {
  if (!base || base.abs === base.shown) return abs;
  const prefix = base.abs.slice(0, base.abs.length - base.shown.length);
  return abs.startsWith(prefix) ? abs.slice(prefix.length) : abs;
}

function summarize(files: readonly FileResult[], skipped: number): ValidationSummary {
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  let invalid = 0;
  for (const f of files) {
    let bad = false;
    for (const x of f.findings) {
      if (x.severity === 'error') {
        errors++;
        bad = true;
      } else if (x.severity === 'warning') warnings++;
      else infos++;
    }
    if (bad) invalid++;
  }
  return { files: files.length, valid: files.length - invalid, invalid, skipped, errors, warnings, infos };
}
