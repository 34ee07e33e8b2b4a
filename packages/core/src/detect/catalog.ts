import { createRequire } from 'node:module';
import type { Catalog, CatalogEntry, JsonSchema } from '@ckpt/schemas';
import { globToRegExp } from './glob.js';

let required: NodeJS.Require | undefined;
/**
 * Node's require for this module, made on first use: at module load it would cost every run (the CLI's bundle
 * holds this module) a file URL and a module object (~0.5-2 ms of a one-file `ckpt validate`), and a run that
 * loads no schema never needs it.
 */
function require(id: string): unknown {
  required ??= createRequire(import.meta.url);
  return required(id);
}
let compiled: { entry: CatalogEntry; patterns: RegExp[] }[] | undefined;

/** schemas/catalog.json, read once (as JSON: cheaper at startup than loading every schema object). */
export function loadCatalog(): Catalog {
  return require('@ckpt/schemas/catalog.json') as Catalog;
}

/** The JSON Schema of a kind (`team/run`), loaded on first use. */
export function schemaFor(kind: string): JsonSchema {
  return require(`@ckpt/schemas/schemas/${kind}.schema.json`) as JsonSchema;
}

/** The kinds a catalog entry may hold (several when told apart by content). */
export function entryKinds(entry: CatalogEntry): readonly string[] {
  return entry.kinds ?? [entry.kind];
}

/** The catalog entry whose `fileMatch` matches a path (absolute or relative, any separator). */
export function matchCatalog(path: string): CatalogEntry | undefined {
  compiled ??= loadCatalog().schemas.map((entry) => ({ entry, patterns: entry.fileMatch.map(globToRegExp) }));
  const posix = path.includes('\\') ? path.replace(/\\/g, '/') : path;
  return compiled.find((c) => c.patterns.some((p) => p.test(posix)))?.entry;
}

/** Every catalog entry of a dialect. */
export function entriesOfDialect(dialect: string): CatalogEntry[] {
  return loadCatalog().schemas.filter((e) => entryKinds(e).some((k) => k.startsWith(`${dialect}/`)));
}
