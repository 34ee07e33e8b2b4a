import { type Finding, findingAt } from '../findings/finding.js';
import type { SourceMap } from '../parse/source-map.js';

const CKPT_ID = /^https:\/\/ckpt\.dev\/schemas\/([a-z0-9-]+)\/([a-z0-9-]+)\/(\d+)\.(\d+)\.json$/;

/** A ckpt schema `$id` taken apart: `https://ckpt.dev/schemas/<dialect>/<kind>/<major>.<minor>.json`. */
export interface SchemaIdParts {
  readonly kind: string;
  readonly major: number;
  readonly minor: number;
}

export function parseSchemaId(id: string): SchemaIdParts | undefined {
  const m = CKPT_ID.exec(id);
  return m ? { kind: `${m[1]}/${m[2]}`, major: Number(m[3]), minor: Number(m[4]) } : undefined;
}

/** What a document's `$schema` says about how to read it against the schema ckpt knows. */
export interface DeclaredSchemaVerdict {
  /** False for a different major version: the document is not checked against ckpt's schema nor used for state. */
  readonly readable: boolean;
  readonly findings: Finding[];
}

/**
 * Applies the versioning policy of schemas/VERSIONING.md to a document that names a ckpt schema in `$schema`:
 * same major and same or older minor is silent; a newer minor is read with a warning; another major is an error.
 * A `$schema` that is not a ckpt `$id`, or names another kind, is left to the schema.
 */
export function checkDeclaredSchema(
  value: unknown,
  knownId: string,
  file: string,
  sourceMap: SourceMap,
): DeclaredSchemaVerdict {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { readable: true, findings: [] };
  const declared = (value as { $schema?: unknown }).$schema;
  if (typeof declared !== 'string') return { readable: true, findings: [] };
  const doc = parseSchemaId(declared);
  const known = parseSchemaId(knownId);
  if (!doc || !known || doc.kind !== known.kind) return { readable: true, findings: [] };
  const loc = sourceMap.locate('/$schema');
  if (doc.major !== known.major) {
    const f = findingAt(file, loc, {
      code: 'schema/unsupported-major',
      severity: 'error',
      pointer: '/$schema',
      message: `written against ${doc.kind} schema ${doc.major}.${doc.minor}; ckpt reads major version ${known.major} (${known.major}.${known.minor}): not interpreted`,
      hint:
        doc.major > known.major
          ? 'upgrade ckpt to read this document'
          : 'migrate the document to the current schema version',
    });
    return { readable: false, findings: [f] };
  }
  if (doc.minor > known.minor) {
    const f = findingAt(file, loc, {
      code: 'schema/newer-minor',
      severity: 'warning',
      pointer: '/$schema',
      message: `written against ${doc.kind} schema ${doc.major}.${doc.minor}, newer than ckpt's ${known.major}.${known.minor}: fields added since are kept but not checked`,
      hint: 'upgrade ckpt to check every field',
    });
    return { readable: true, findings: [f] };
  }
  return { readable: true, findings: [] };
}
