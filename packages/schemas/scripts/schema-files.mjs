// Lists the source schemas under <repo>/schemas/<dialect>/<kind>.schema.json in a stable order.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const repoDir = resolve(packageDir, '../..');
export const schemasDir = process.env.CKPT_SCHEMAS_DIR ?? join(repoDir, 'schemas');

export function listSchemaFiles() {
  const out = [];
  for (const dialect of readdirSync(schemasDir).sort()) {
    const dir = join(schemasDir, dialect);
    if (!statSync(dir).isDirectory()) continue;
    for (const file of readdirSync(dir).sort()) {
      if (!file.endsWith('.schema.json')) continue;
      const path = join(dir, file);
      const kind = file.slice(0, -'.schema.json'.length);
      out.push({
        dialect,
        kind,
        id: `${dialect}/${kind}`,
        path,
        schema: JSON.parse(readFileSync(path, 'utf8')),
      });
    }
  }
  return out;
}

export function readCatalog() {
  return JSON.parse(readFileSync(join(schemasDir, 'catalog.json'), 'utf8'));
}
