import type { CheckedDocument } from '../dialects/dialect.js';
import type { Finding, Location } from '../findings/finding.js';
import { readUtf8File } from '../parse/decode.js';
import type { SourceMap } from '../parse/source-map.js';
import { type DocFormat, dialectOf, parseAs } from './check-document.js';

/**
 * A source map found again from the file, on the first location asked for: the records of `validate` do not hold
 * texts, and a tree rule seldom places a finding (the scan runs only then). The file is read with the same reader
 * and parsed in the same format as in the per-file pass.
 */
export class RereadSourceMap implements SourceMap {
  private map: SourceMap | null | undefined;

  constructor(
    private readonly path: string,
    private readonly file: string,
    private readonly format: DocFormat,
    private readonly text: string | undefined,
  ) {}

  locate(pointer: string, part?: 'value' | 'key'): Location {
    if (this.map === undefined) {
      let text = this.text;
      try {
        text ??= readUtf8File(this.path, this.file).text;
      } catch {
        text = undefined;
      }
      this.map = text === undefined ? null : (parseAs(this.format, text, this.file).sourceMap ?? null);
    }
    return this.map ? this.map.locate(pointer, part) : { line: 1, column: 1 };
  }
}

/**
 * What the per-file pass of `validate` keeps of a document for the tree rules: the document as its dialect's
 * `treeRecord` cut it, without its source map, and the format to find positions again with (`remap`, undefined
 * when the document had no source map).
 */
export interface DocRecord extends Omit<CheckedDocument, 'sourceMap'> {
  readonly remap: DocFormat | undefined;
  /** The document itself, kept on the thread that checked it when its dialect keeps it whole (`treeRecord`). */
  readonly whole?: CheckedDocument;
}

/**
 * A record as a worker thread sends it (structured clone: no class instances): without the path and display path,
 * which the receiver has already (`withRef` puts them back), nor the whole document.
 */
export type SentRecord = Omit<DocRecord, 'path' | 'file' | 'whole'>;

/**
 * A record kept on this thread. It is also the document the tree rules see (`documentOf` returns it: no second
 * object per file), its source map made on the first position asked for.
 */
class KeptRecord implements DocRecord, CheckedDocument {
  whole?: CheckedDocument;
  private map: SourceMap | undefined;

  constructor(
    readonly path: string,
    readonly file: string,
    readonly kind: string | undefined,
    readonly text: string | undefined,
    readonly value: unknown,
    readonly usable: boolean,
    readonly findings: readonly Finding[],
    readonly remap: DocFormat | undefined,
  ) {}

  get sourceMap(): SourceMap | undefined {
    if (this.remap === undefined) return undefined;
    this.map ??= new RereadSourceMap(this.path, this.file, this.remap, this.text);
    return this.map;
  }
}

const kept = (rec: SentRecord, path: string, file: string) =>
  new KeptRecord(path, file, rec.kind, rec.text, rec.value, rec.usable, rec.findings, rec.remap);

/** What a document's dialect keeps of it for the tree rules (`Dialect.treeRecord`): by default its value. */
function treeCut(doc: CheckedDocument): { value: unknown; text: string | undefined } {
  const dialect = doc.kind ? dialectOf(doc.kind) : undefined;
  return dialect?.treeRecord ? dialect.treeRecord(doc) : { value: doc.value, text: undefined };
}

/** The record of a checked document, kept on this thread. */
export function recordOf(doc: CheckedDocument, format: DocFormat): DocRecord {
  const cut = treeCut(doc);
  const rec = new KeptRecord(
    doc.path,
    doc.file,
    doc.kind,
    cut.text,
    cut.value,
    doc.usable,
    doc.findings,
    doc.sourceMap ? format : undefined,
  );
  if (rec.value === doc.value && rec.text === doc.text) rec.whole = doc;
  return rec;
}

/** The record of a checked document, to send to another thread. */
export function sentRecordOf(doc: CheckedDocument, format: DocFormat): SentRecord {
  const cut = treeCut(doc);
  return {
    kind: doc.kind,
    text: cut.text,
    value: cut.value,
    usable: doc.usable,
    findings: doc.findings,
    remap: doc.sourceMap ? format : undefined,
  };
}

/** A received record with its paths put back (kept as this thread keeps its own records). */
export function withRef(rec: SentRecord | DocRecord, ref: { path: string; file: string }): DocRecord {
  if ('path' in rec) return rec;
  return kept(rec, ref.path, ref.file);
}

/** The document the tree rules see for a record: its positions are found again from the file when asked. */
export function documentOf(rec: DocRecord): CheckedDocument {
  if (rec.whole) return rec.whole;
  if (rec instanceof KeptRecord) return rec;
  return {
    path: rec.path,
    file: rec.file,
    kind: rec.kind,
    text: rec.text,
    value: rec.value,
    usable: rec.usable,
    sourceMap: rec.remap ? new RereadSourceMap(rec.path, rec.file, rec.remap, rec.text) : undefined,
    findings: rec.findings,
  };
}
