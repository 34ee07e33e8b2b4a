/** A JSON Schema document (draft 2020-12), as plain JSON. */
export type JsonSchema = { readonly [key: string]: unknown };

/** One document kind: `<dialect>/<kind>`, its schema's `$id` and the name of its generated type. */
export interface KindInfo {
  readonly id: string;
  readonly dialect: string;
  readonly kind: string;
  readonly title: string;
  readonly $id: string;
}

/** One entry of schemas/catalog.json (SchemaStore's catalog shape, plus ckpt's `kind`). */
export interface CatalogEntry {
  readonly name: string;
  readonly description: string;
  readonly fileMatch: readonly string[];
  readonly url: string;
  readonly versions?: Readonly<Record<string, string>>;
  /** `<dialect>/<kind>`, or several when the kind is told apart by content. */
  readonly kind: string;
  readonly kinds?: readonly string[];
  /** How the file is parsed: `json`, `jsonl` (each line one document) or `env`. */
  readonly format: 'json' | 'jsonl' | 'env';
}

/** schemas/catalog.json. */
export interface Catalog {
  readonly $schema?: string;
  readonly version: number;
  readonly schemas: readonly CatalogEntry[];
}
