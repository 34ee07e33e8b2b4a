import type { CatalogEntry } from '@ckpt/schemas';
import { entriesOfDialect, entryKinds, matchCatalog, schemaFor } from '../detect/catalog.js';
import type { CheckedDocument, Dialect } from '../dialects/dialect.js';
import { dialects, getDialect } from '../dialects/registry.js';
import { type Finding, findingAt } from '../findings/finding.js';
import { ReadRefusedError } from '../fs/read-checkpoint.js';
import { readFailureFinding } from '../fs/read-failure.js';
import { type DecodedText, readUtf8File } from '../parse/decode.js';
import { parseEnv } from '../parse/env.js';
import { parsedSourceMap, parseJson } from '../parse/json.js';
import { parseJsonl } from '../parse/jsonl.js';
import type { SourceMap } from '../parse/source-map.js';
import { ajvErrorsToFindings } from '../validate/ajv-findings.js';
import { provedByLayout } from '../validate/layout-proof.js';
import { unknownFields } from '../validate/unknown-fields.js';
import { validatorFor } from '../validate/validators.js';
import { checkDeclaredSchema, type DeclaredSchemaVerdict } from '../versioning/declared-schema.js';

export interface CheckOptions {
  /** Report fields the schemas do not name. */
  readonly strict?: boolean;
  /**
   * Only this dialect: files found in folders are checked when one of its catalog patterns matches them; a file
   * named explicitly is read as this dialect (its kind told apart by path within it, else by content).
   */
  readonly dialect?: string;
  /** Try content detection for a file no catalog pattern matches (files named explicitly). */
  readonly sniff?: boolean;
  /** Read no file whose real path is outside this directory (fs/read-checkpoint.ts: `io/outside-project`). */
  readonly confineTo?: string;
  /** The directory walk listed this path as a regular file (fs/read-checkpoint.ts: `ReadOptions.listedAsFile`). */
  readonly listedAsFile?: boolean;
}

/** Kinds by the dialect their prefix names (`team/run`: team), found once per kind. */
const dialectOfKinds = new Map<string, Dialect | undefined>();

/** The dialect of a kind (`team/task-event`: team), without slicing the kind for each document. */
export function dialectOf(kind: string): Dialect | undefined {
  let d = dialectOfKinds.get(kind);
  if (d === undefined && !dialectOfKinds.has(kind)) {
    d = getDialect(kind.slice(0, kind.indexOf('/')));
    dialectOfKinds.set(kind, d);
  }
  return d;
}

/** How a file is parsed: its catalog entry's format, else by extension. */
export type DocFormat = CatalogEntry['format'];

/** The format `checkEntry` parses a path in, given its catalog entry. */
export function formatOf(path: string, entry: CatalogEntry | undefined): DocFormat {
  return entry?.format ?? (path.endsWith('.env') ? 'env' : path.endsWith('.jsonl') ? 'jsonl' : 'json');
}

type Parsed = {
  value: unknown;
  usable: boolean;
  sourceMap: SourceMap | undefined;
  findings: readonly Finding[];
};

/** A JSON object of scalars as env values (strings), for a key=value kind written as JSON; else undefined. */
function jsonAsEnv(text: string, file: string): Parsed | undefined {
  const p = parseJson(text, file);
  const v = p.value;
  if (!p.ok || v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const values: Record<string, string> = Object.create(null);
  for (const [k, x] of Object.entries(v)) {
    if (x !== null && typeof x === 'object') return undefined;
    if (x !== null) values[k] = String(x);
  }
  return { value: values, usable: true, sourceMap: p.sourceMap, findings: p.findings };
}

/** Parses a text in a catalog format (the parse `checkEntry` does; also used to place a finding later). */
export function parseAs(format: DocFormat, text: string, file: string): Parsed {
  if (format === 'env') {
    // A lock file (not *.env) written as a flat JSON object holds the same metadata: read it as such.
    const json = !file.endsWith('.env') && /^\s*\{/.test(text) ? jsonAsEnv(text, file) : undefined;
    if (json) return json;
    const p = parseEnv(text, file);
    return { value: p.values, usable: p.ok, sourceMap: p.sourceMap, findings: p.findings };
  }
  if (format === 'jsonl') {
    const p = parseJsonl(text, file);
    const usable = p.findings.every((f) => f.severity !== 'error');
    return { value: p.lines.map((l) => l.parsed.value), usable, sourceMap: undefined, findings: p.findings };
  }
  const p = parseJson(text, file);
  return { value: p.value, usable: p.ok, sourceMap: p.sourceMap, findings: p.findings };
}

/** The versioning policy for a document whose `$schema` names a ckpt schema (schemas/VERSIONING.md). */
function declaredSchema(
  kind: string,
  value: unknown,
  file: string,
  sourceMap: SourceMap,
): DeclaredSchemaVerdict | undefined {
  if (
    value === null ||
    typeof value !== 'object' ||
    typeof (value as { $schema?: unknown }).$schema !== 'string'
  )
    return undefined;
  return checkDeclaredSchema(value, (schemaFor(kind) as { $id: string }).$id, file, sourceMap);
}

/** The value of a text proved valid by its layout, when its entry names one kind (`provedByLayout`). */
function provedAs(entry: CatalogEntry, text: string): object | undefined {
  const kinds = entryKinds(entry);
  return kinds.length === 1 ? provedByLayout(kinds[0]!, text) : undefined;
}

/** No findings: shared, never added to. */
const NONE: readonly Finding[] = Object.freeze([]);

/** `a` then `b`: `a` itself when `b` is empty (no new list). */
const plus = (a: readonly Finding[], b: readonly Finding[]): readonly Finding[] =>
  b.length === 0 ? a : a.length === 0 ? b : [...a, ...b];

function schemaFindings(
  kind: string,
  value: unknown,
  file: string,
  sourceMap: SourceMap,
  strict: boolean,
): readonly Finding[] {
  const validate = validatorFor(kind);
  const valid = validate(value);
  if (valid && !strict) return NONE;
  const out = valid ? [] : ajvErrorsToFindings(validate.errors ?? [], value, file, sourceMap);
  if (strict) {
    const unknown = unknownFields(schemaFor(kind), value, file, sourceMap);
    const seen = new Set(out.map((f) => `${f.code} ${f.pointer}`));
    for (const f of unknown) if (!seen.has(`${f.code} ${f.pointer}`)) out.push(f);
  }
  return out;
}

const LISTED = { listedAsFile: true } as const;

function readOptions(opts: CheckOptions) {
  if (opts.confineTo !== undefined)
    return { confineTo: opts.confineTo, ...(opts.listedAsFile ? LISTED : {}) };
  return opts.listedAsFile ? LISTED : undefined;
}

/** The catalog entry checkDocument uses for a path (none when `--dialect` names another dialect). */
export function pickEntry(path: string, opts: CheckOptions): CatalogEntry | undefined {
  const byPath = matchCatalog(path);
  if (!opts.dialect) return byPath;
  if (byPath && entryKinds(byPath).some((k) => k.startsWith(`${opts.dialect}/`))) return byPath;
  return undefined;
}

function detectKind(entry: CatalogEntry | undefined, value: unknown, opts: CheckOptions): string | undefined {
  if (entry) {
    const kinds = entryKinds(entry);
    if (kinds.length === 1) return kinds[0];
    const d = dialectOf(kinds[0]!);
    return d?.detectKind?.(value, kinds);
  }
  const candidates = opts.dialect ? [getDialect(opts.dialect)].filter((d) => d !== undefined) : dialects;
  for (const d of candidates) {
    const kinds = entriesOfDialect(d.id).flatMap((e) => entryKinds(e));
    const k = d.detectKind?.(value, kinds);
    if (k) return k;
  }
  return undefined;
}

/**
 * Reads, parses and checks one file: catalog detection, strict UTF-8, the parser of its format, schema
 * validation, `--strict` unknown fields, and its dialect's per-document rules. Never throws for bad input.
 * Returns undefined when the file is not a checkpoint (no pattern matches, nothing detected).
 */
export function checkDocument(
  path: string,
  file: string,
  opts: CheckOptions = {},
): CheckedDocument | undefined {
  return checkEntry(path, file, opts, pickEntry(path, opts));
}

/** checkDocument with the catalog entry already picked (`pickEntry`), for callers that needed it first. */
export function checkEntry(
  path: string,
  file: string,
  opts: CheckOptions,
  entry: CatalogEntry | undefined,
): CheckedDocument | undefined {
  // `--dialect` narrows a folder to that dialect's patterns; only a file named explicitly (sniff) is forced into it.
  if (!entry && !opts.sniff) return undefined;
  let decoded: DecodedText;
  try {
    decoded = readUtf8File(path, file, readOptions(opts));
  } catch (e) {
    // A file named explicitly that cannot be read (a FIFO, a device, too large) is reported even without a pattern.
    if (!entry && !(opts.sniff && e instanceof ReadRefusedError)) return undefined;
    const f = readFailureFinding(path, file, e);
    return {
      path,
      file,
      kind: entry && entryKinds(entry)[0],
      text: undefined,
      value: undefined,
      usable: false,
      sourceMap: undefined,
      findings: [f],
    };
  }
  if (decoded.text === undefined) {
    if (!entry) return undefined;
    return {
      path,
      file,
      kind: entryKinds(entry)[0],
      text: undefined,
      value: undefined,
      usable: false,
      sourceMap: undefined,
      findings: decoded.findings,
    };
  }
  const text = decoded.text;
  const format = formatOf(path, entry);
  // A text its layout proves a valid document of its kind is parsed, and has no parse or schema finding, without
  // the parse's tally or the validator (validate/layout-proof.ts); any other takes the full path.
  const proved = format === 'json' && entry ? provedAs(entry, text) : undefined;
  const parsed: Parsed =
    proved === undefined
      ? parseAs(format, text, file)
      : { value: proved, usable: true, sourceMap: parsedSourceMap(text), findings: NONE };
  const kind =
    parsed.value === undefined ? entry && entryKinds(entry)[0] : detectKind(entry, parsed.value, opts);
  if (!entry && !kind) {
    // A file the user named (.json, .jsonl or .env) or forced into a dialect that does not even parse: report
    // why, rather than skipping it as "not a checkpoint".
    const named = opts.dialect !== undefined || (opts.sniff === true && /\.(json|jsonl|env)$/.test(path));
    if (parsed.value !== undefined || !named) return undefined;
    return {
      path,
      file,
      kind: undefined,
      text,
      value: undefined,
      usable: false,
      sourceMap: parsed.sourceMap,
      findings: [...decoded.findings, ...parsed.findings],
    };
  }
  // Most documents have no finding at all: they share one empty list (`NONE`) instead of a list each.
  let findings = plus(plus(NONE, decoded.findings), parsed.findings);
  // An env file with an unparsable line is a stop condition as a whole: its keys are not checked one by one.
  const checkable = parsed.value !== undefined && (format !== 'env' || parsed.usable);
  let usable = parsed.usable;
  const declared =
    kind && checkable && format === 'json' && parsed.sourceMap
      ? declaredSchema(kind, parsed.value, file, parsed.sourceMap)
      : undefined;
  if (declared) findings = plus(findings, declared.findings);
  if (declared && !declared.readable) usable = false;
  else if (kind && checkable) {
    const schema =
      proved !== undefined
        ? NONE
        : format === 'jsonl'
          ? jsonlSchemaFindings(kind, text, file, opts.strict ?? false)
          : parsed.sourceMap
            ? schemaFindings(kind, parsed.value, file, parsed.sourceMap, opts.strict ?? false)
            : NONE;
    findings = plus(findings, schema);
  } else if (!kind && parsed.value !== undefined) {
    findings = plus(findings, [
      findingAt(
        file,
        { line: 1, column: 1 },
        {
          code: 'detect/unknown-kind',
          severity: 'warning',
          message: 'the path matches a dialect, but the content matches none of its document kinds',
        },
      ),
    ]);
  }
  const doc: CheckedDocument = {
    path,
    file,
    kind,
    text,
    value: parsed.value,
    usable,
    sourceMap: parsed.sourceMap,
    findings,
  };
  if (declared && !declared.readable) return doc;
  const dialect = kind ? dialectOf(kind) : undefined;
  if (!dialect?.checkDocument || parsed.value === undefined) return doc;
  const semantic = dialect.checkDocument(doc);
  if (semantic.length === 0) return doc;
  const all = doc.findings;
  const isSchema = (f: Finding) => f.code.startsWith('schema/');
  const kept = dialect.filterSchemaFindings
    ? new Set(dialect.filterSchemaFindings(all.filter(isSchema), semantic, doc))
    : undefined;
  const base = kept ? all.filter((f) => !isSchema(f) || kept.has(f)) : all;
  return { ...doc, findings: [...base, ...semantic] };
}

function jsonlSchemaFindings(kind: string, text: string, file: string, strict: boolean): Finding[] {
  const out: Finding[] = [];
  for (const line of parseJsonl(text, file).lines) {
    if (line.parsed.value === undefined) continue;
    for (const f of schemaFindings(kind, line.parsed.value, file, line.parsed.sourceMap, strict)) {
      out.push({
        ...f,
        line: line.line,
        ...(f.endLine !== undefined ? { endLine: line.line } : {}),
        message: `line ${line.line}: ${f.message}`,
      });
    }
  }
  return out;
}
