// Packs @ckpt/schemas the way it is published and installs the tarball into a plain Node project, outside the
// workspace, so only what the tarball and its declared dependencies hold is there. Needs `pnpm build` first.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kinds } from '../src/index.js';

const pkgDir = resolve(import.meta.dirname, '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
let dir = '';
let project = '';

const node = (file: string) => {
  const r = spawnSync(process.execPath, [file], { cwd: project, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ckpt-pack-'));
  execFileSync('pnpm', ['pack', '--pack-destination', dir], { cwd: pkgDir, stdio: 'pipe' });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
  project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), '{"name":"scratch","private":true,"version":"0.0.0"}\n');
  // ajv and ajv-formats come from npm's cache when they are there, else from the registry.
  execFileSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', join(dir, tarball)],
    {
      cwd: project,
      stdio: 'pipe',
    },
  );
}, 180_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const validDoc = `{ run_id: '20261028T131016577943Z-20fe61', created_at: '2026-10-28T13:10:16Z', profile: 'new', stage: 'build', status: 'running', session: null, parent_session: null }`;

describe('the packed @ckpt/schemas', () => {
  it('should import every entry with ESM, and createValidator should assert formats', () => {
    writeFileSync(
      join(project, 'esm.mjs'),
      `import { schemas, catalog, kinds, createValidator, createAjv, ajvOptions } from '@ckpt/schemas';
import catalogJson from '@ckpt/schemas/catalog.json' with { type: 'json' };
import runJson from '@ckpt/schemas/schemas/team/run.schema.json' with { type: 'json' };
import pkg from '@ckpt/schemas/package.json' with { type: 'json' };
import precompiled from '@ckpt/schemas/validators/team/run';
const validate = createValidator('team/run');
const doc = ${validDoc};
const valid = validate(doc);
const badDate = validate({ ...doc, created_at: 'yesterday' });
console.log(JSON.stringify({
  schemas: Object.keys(schemas).length, kinds: kinds.length, catalog: catalog.schemas.length,
  catalogJson: catalogJson.schemas.length, runId: runJson.$id, version: pkg.version, strict: ajvOptions.strict,
  valid, badDate, keyword: validate.errors?.[0]?.keyword, ajv: typeof createAjv().getSchema(runJson.$id),
  precompiled: precompiled(doc) && !precompiled({ ...doc, created_at: 'yesterday' }),
}));
`,
    );
    const out = node('esm.mjs');
    expect(out).toMatchObject({
      schemas: kinds.length,
      kinds: kinds.length,
      valid: true,
      badDate: false,
      keyword: 'format',
    });
    expect(out).toMatchObject({
      runId: 'https://ckpt.dev/schemas/team/run/1.0.json',
      version: '1.0.0',
      strict: true,
    });
    expect(out).toMatchObject({ ajv: 'function', precompiled: true });
    expect(out.catalog).toBe(out.catalogJson);
  });

  it('should require every entry with CommonJS, and createValidator should assert formats', () => {
    writeFileSync(
      join(project, 'cjs.cjs'),
      `const m = require('@ckpt/schemas');
const validate = m.createValidator('team/run');
const doc = ${validDoc};
const precompiled = require('@ckpt/schemas/validators/team/run');
console.log(JSON.stringify({
  schemas: Object.keys(m.schemas).length, kinds: m.kinds.length, catalog: m.catalog.schemas.length,
  catalogJson: require('@ckpt/schemas/catalog.json').schemas.length,
  runId: require('@ckpt/schemas/schemas/team/run.schema.json').$id,
  version: require('@ckpt/schemas/package.json').version,
  valid: validate(doc), badDate: validate({ ...doc, created_at: 'yesterday' }),
  precompiled: precompiled.default(doc) && !precompiled.default({ ...doc, created_at: 'yesterday' }),
}));
`,
    );
    const out = node('cjs.cjs');
    expect(out).toMatchObject({
      schemas: kinds.length,
      kinds: kinds.length,
      valid: true,
      badDate: false,
      precompiled: true,
    });
    expect(out.runId).toBe('https://ckpt.dev/schemas/team/run/1.0.json');
    expect(out.catalog).toBe(out.catalogJson);
  });

  it('should give TypeScript the generated types from ESM and CommonJS files', () => {
    writeFileSync(
      join(project, 'types.mts'),
      `import { createValidator, type SchemaKindId, type TeamRun } from '@ckpt/schemas';
const run: TeamRun = ${validDoc};
const kind: SchemaKindId = 'team/run';
export const ok = createValidator(kind)(run);
`,
    );
    writeFileSync(
      join(project, 'types.cts'),
      `import ckpt = require('@ckpt/schemas');
const kind: ckpt.SchemaKindId = 'ulpi/status-v2';
export const validate = ckpt.createValidator(kind);
`,
    );
    writeFileSync(
      join(project, 'wrong.mts'),
      `import type { TeamRun } from '@ckpt/schemas';\nexport const run: TeamRun = { run_id: 1 };\n`,
    );
    const args = [
      tsc,
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
    ];
    const good = spawnSync(process.execPath, [...args, 'types.mts', 'types.cts'], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(good.stdout).toBe('');
    expect(good.status).toBe(0);
    const wrong = spawnSync(process.execPath, [...args, 'wrong.mts'], { cwd: project, encoding: 'utf8' });
    expect(wrong.status).not.toBe(0);
  });
});
