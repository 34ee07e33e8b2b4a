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

/** The kinds of entries that name one kind, each list made once (entryKinds is asked several times a file). */
const singleKinds = new WeakMap<CatalogEntry, readonly string[]>();

/** The kinds a catalog entry may hold (several when told apart by content). */
export function entryKinds(entry: CatalogEntry): readonly string[] {
  if (entry.kinds) return entry.kinds;
  let kinds = singleKinds.get(entry);
  if (!kinds) {
    kinds = [entry.kind];
    singleKinds.set(entry, kinds);
  }
  return kinds;
}

/**
 * The catalog entry whose `fileMatch` matches a path (absolute or relative, any separator). Plain loops: asked for
 * every file, and callbacks capturing the path cost a closure or two each time (indexed: no iterators either).
 */
export function matchCatalog(path: string): CatalogEntry | undefined {
  compiled ??= loadCatalog().schemas.map((entry) => ({ entry, patterns: entry.fileMatch.map(globToRegExp) }));
  const posix = path.includes('\\') ? path.replace(/\\/g, '/') : path;
  for (let i = 0; i < compiled.length; i++) {
    const c = compiled[i]!;
    for (let j = 0; j < c.patterns.length; j++) if (c.patterns[j]!.test(posix)) return c.entry;
  }
  return undefined;
}

/** Every catalog entry of a dialect. */
export function entriesOfDialect(dialect: string): CatalogEntry[] {
  return loadCatalog().schemas.filter((e) => entryKinds(e).some((k) => k.startsWith(`${dialect}/`)));
}
