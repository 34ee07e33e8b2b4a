// Compares every schema under <repo>/schemas with the last released version of it (released/<version>/) and
// fails on a change its $id version does not allow (schemas/VERSIONING.md). `--release` records the current
// schemas as released under the package's version. Directories can be overridden for tests:
// CKPT_SCHEMAS_DIR (schemas) and CKPT_RELEASED_DIR (baselines).
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { judge, versionOf } from './compat-rules.mjs';
import { listSchemaFiles, packageDir, readCatalog, schemasDir } from './schema-files.mjs';

const releasedDir = process.env.CKPT_RELEASED_DIR ?? join(packageDir, 'released');
const semver = (s) => s.split('.').map(Number);
const newestFirst = (a, b) => {
  const [x, y] = [semver(a), semver(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (y[i] ?? 0) - (x[i] ?? 0);
  return 0;
};
const releases = () =>
  existsSync(releasedDir)
    ? readdirSync(releasedDir)
        .filter((d) => /^\d+\.\d+\.\d+$/.test(d))
        .sort(newestFirst)
    : [];

if (process.argv.includes('--release')) {
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const target = join(releasedDir, version);
  if (existsSync(target)) {
    console.error(`compat: ${version} is already released (${target}); bump the package version first.`);
    process.exit(1);
  }
  for (const e of listSchemaFiles()) cpSync(e.path, join(target, e.dialect, `${e.kind}.schema.json`));
  console.log(`compat: recorded ${listSchemaFiles().length} schemas as released ${version}.`);
  process.exit(0);
}

const current = new Map(listSchemaFiles().map((e) => [e.id, e.schema]));
const problems = [];
const compared = [];
const seen = new Set();
for (const release of releases()) {
  for (const dialect of readdirSync(join(releasedDir, release))) {
    for (const file of readdirSync(join(releasedDir, release, dialect))) {
      if (!file.endsWith('.schema.json')) continue;
      const kind = `${dialect}/${file.slice(0, -'.schema.json'.length)}`;
      if (seen.has(kind)) continue; // a newer release already holds this kind
      seen.add(kind);
      const released = JSON.parse(readFileSync(join(releasedDir, release, dialect, file), 'utf8'));
      const now = current.get(kind);
      if (!now) {
        problems.push(`${kind}: released in ${release}, now removed (removing a kind is incompatible)`);
        continue;
      }
      compared.push(kind);
      problems.push(...judge(kind, released, now).map((p) => `${p} [since ${release}]`));
    }
  }
}
// The catalog must follow a version bump: its entry's url and versions name the $id the schema now has.
const catalog = readCatalog();
for (const [kind, schema] of current) {
  const entries = catalog.schemas.filter((e) => e.kind === kind || (e.kinds ?? []).includes(kind));
  if (entries.length === 0) problems.push(`${kind}: no entry in schemas/catalog.json`);
  const v = versionOf(schema.$id);
  for (const e of entries.filter((x) => x.kind === kind)) {
    if (e.url !== schema.$id)
      problems.push(`${kind}: catalog url ${e.url} is not the schema's $id ${schema.$id}`);
    if (v && e.versions?.[`${v.major}.${v.minor}`] !== schema.$id)
      problems.push(`${kind}: catalog versions has no "${v.major}.${v.minor}": "${schema.$id}"`);
  }
}
if (problems.length > 0) {
  console.error(
    `Schema changes that their $id version does not allow (see schemas/VERSIONING.md):\n  ${problems.join('\n  ')}`,
  );
  console.error(
    `Bump the version in the schema's $id (and its catalog "versions"), or undo the change. Schemas: ${schemasDir}`,
  );
  process.exit(1);
}
const fresh = [...current.keys()].filter((k) => !seen.has(k));
console.log(
  `compat: ${compared.length} schemas compatible with their last release${fresh.length ? `; not released yet: ${fresh.join(', ')}` : ''}.`,
);
