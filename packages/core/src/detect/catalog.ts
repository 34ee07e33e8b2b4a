import type { Catalog, CatalogEntry, JsonSchema } from '@ckpt/schemas';
import { lazyRequire } from '../util/lazy-require.js';
import { globToRegExp } from './glob.js';

/** Node's require for this module, made on first use: a run that loads no schema never needs it. */
const require = lazyRequire(() => import.meta.url);
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
