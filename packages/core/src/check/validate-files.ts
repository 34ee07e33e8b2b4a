import type { CatalogEntry } from '@ckpt/schemas';
import { entryKinds } from '../detect/catalog.js';
import type { CheckedDocument, TreeContext } from '../dialects/dialect.js';
import { getDialect } from '../dialects/registry.js';
import { compareFindings, type Finding } from '../findings/finding.js';
import { type CheckOptions, checkDocument, checkEntry, pickEntry } from './check-document.js';
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
        doc =
          checkDocument(absPath, display(absPath), { ...opts, sniff: true }) ??
          unreadable(absPath, display(absPath));
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
 *
 * A file whose catalog entry already names its root (whatever kind its content turns out to be) is checked when
 * that root's tree rules ask for it, not before: rules that `release` documents when done with them (team: run
 * by run) then never hold a whole large tree in memory. The outcome is the same as checking every file first: the
 * same documents, and a root's tree findings count only when one of its files really belongs to it.
 */
export function validateFiles(refs: readonly FileRef[], opts: ValidateOptions = {}): ValidationReport {
  // Two option objects for the whole run, not one spread per file.
  const named: CheckOptions = { ...opts, sniff: true };
  const found: CheckOptions = { ...opts, sniff: false };
  const known = new Map<string, CheckedDocument>();
  const perFile = new Map<string, FileResult>();
  const confirmed = new Map<string, string>();
  let skipped = 0;
  let done = 0;
  const record = (
    ref: FileRef,
    entry: CatalogEntry | undefined,
    key?: string,
  ): CheckedDocument | undefined => {
    const doc = checkEntry(ref.path, ref.file, ref.explicit ? named : found, entry);
    opts.onProgress?.(++done, refs.length);
    if (!doc) {
      skipped++;
      return undefined;
    }
    perFile.set(doc.file, { file: doc.file, kind: doc.kind, findings: doc.findings });
    // A deferred file of a kind its entry names is under its candidate root (rootKey checked every such kind).
    if (key && doc.kind !== undefined && entryKinds(entry!).includes(doc.kind)) {
      if (!confirmed.has(key)) confirmed.set(key, key.slice(key.indexOf('\0') + 1));
    } else {
      const dialect = doc.kind ? getDialect(doc.kind.split('/')[0]!) : undefined;
      const root = dialect?.rootOf?.(doc.path, doc.kind);
      if (dialect && root) confirmed.set(`${dialect.id}\0${root}`, root);
    }
    known.set(doc.path, doc);
    return doc;
  };
  const deferred = new Map<string, { ref: FileRef; entry: CatalogEntry; key: string }>();
  const candidates = new Map<string, string>();
  for (const ref of refs) {
    const entry = pickEntry(ref.path, opts);
    const key = entry && rootKey(ref.path, entry);
    if (key) {
      deferred.set(ref.path, { ref, entry: entry!, key });
      if (!candidates.has(key)) candidates.set(key, key.slice(key.indexOf('\0') + 1));
    } else record(ref, entry);
  }
  const base = refs[0] ? { abs: refs[0].path, shown: refs[0].file } : undefined;
  let displayOf: Map<string, string> | undefined;
  const display = (abs: string) => {
    const doc = known.get(abs);
    if (doc) return doc.file;
    displayOf ??= new Map(refs.map((r) => [r.path, r.file]));
    return displayOf.get(abs) ?? relativeLike(abs, base);
  };
  const ctx: TreeContext = {
    document(absPath) {
      const cached = known.get(absPath);
      if (cached) return cached;
      const d = deferred.get(absPath);
      if (d) {
        deferred.delete(absPath);
        const doc = record(d.ref, d.entry, d.key);
        if (doc) return doc;
      }
      const doc = checkDocument(absPath, display(absPath), named) ?? unreadable(absPath, display(absPath));
      known.set(absPath, doc);
      return doc;
    },
    display,
    release(absPaths) {
      for (const p of absPaths) known.delete(p);
    },
  };
  const extra = new Map<string, Finding[]>();
  const treeFindings = (key: string, root: string) => {
    const dialect = getDialect(key.slice(0, key.indexOf('\0')))!;
    return dialect.checkTree?.(root, ctx) ?? [];
  };
  const byCandidate = new Map<string, Finding[]>();
  for (const [key, root] of candidates) byCandidate.set(key, treeFindings(key, root));
  // Files their root's rules did not ask for are checked now (they may still name further roots).
  for (const { ref, entry, key } of [...deferred.values()]) record(ref, entry, key);
  for (const [key, root] of confirmed)
    for (const f of byCandidate.get(key) ?? treeFindings(key, root)) {
      const list = extra.get(f.file) ?? [];
      list.push(f);
      extra.set(f.file, list);
    }
  for (const [file, findings] of extra) {
    const prev = perFile.get(file);
    const merged = dedupe([...(prev?.findings ?? []), ...findings]);
    perFile.set(file, { file, kind: prev?.kind, findings: merged });
  }
  const files = [...perFile.values()]
    .map((r) => (r.findings.length > 1 ? { ...r, findings: [...r.findings].sort(compareFindings) } : r))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { formatVersion: VALIDATION_FORMAT_VERSION, files, summary: summarize(files, skipped) };
}

/** `<dialect>\0<root>` when every kind the entry may hold puts the path under the same tree root. */
function rootKey(path: string, entry: CatalogEntry): string | undefined {
  const kinds = entryKinds(entry);
  const dialect = getDialect(kinds[0]!.split('/')[0]!);
  if (!dialect?.checkTree || !dialect.rootOf) return undefined;
  const root = dialect.rootOf(path, kinds[0]);
  if (!root) return undefined;
  for (let i = 1; i < kinds.length; i++) if (dialect.rootOf(path, kinds[i]) !== root) return undefined;
  return `${dialect.id}\0${root}`;
}

function unreadable(path: string, file: string): CheckedDocument {
  return {
    path,
    file,
    kind: undefined,
    text: undefined,
    value: undefined,
    usable: false,
    sourceMap: undefined,
    findings: [],
  };
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
