export { ajvOptions, createAjv, createValidator } from './create-validator.js';
export { catalog } from './generated/catalog.js';
export { kinds, type SchemaKindId, schemas } from './generated/schemas.js';
export type * from './generated/types/index.js';
export type { Catalog, CatalogEntry, JsonSchema, KindInfo } from './schema-types.js';
