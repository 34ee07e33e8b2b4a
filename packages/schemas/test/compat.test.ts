import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareSchemas, judge } from '../scripts/compat-rules.mjs';

const pkg = resolve(import.meta.dirname, '..');
const compat = join(pkg, 'scripts/compat.mjs');

const base = () => ({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://ckpt.dev/schemas/demo/doc/1.0.json',
  title: 'Demo',
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'string', pattern: '^[a-z]+$', description: 'id' },
    status: { $ref: '#/$defs/Status' },
    nested: {
      type: 'object',
      additionalProperties: false,
      properties: { n: { type: 'integer', minimum: 1 } },
    },
  },
  $defs: { Status: { enum: ['pending', 'done', 'failed'] } },
});
type Schema = ReturnType<typeof base> & Record<string, unknown>;
const withVersion = (s: Schema, v: string) => ({ ...s, $id: `https://ckpt.dev/schemas/demo/doc/${v}.json` });

/** Each incompatible change kind of schemas/VERSIONING.md, applied to the base schema. */
const incompatible: Record<string, (s: Schema) => void> = {
  'added required property': (s) => {
    s.required.push('status');
  },
  'removed enum value': (s) => {
    s.$defs.Status.enum = ['pending', 'done'];
  },
  'changed pattern': (s) => {
    s.properties.id.pattern = '^[a-z]{3,}$';
  },
  'additionalProperties flipped from true to false': (s) => {
    s.additionalProperties = false;
  },
  'additionalProperties flipped from false to true': (s) => {
    delete (s.properties.nested as Record<string, unknown>).additionalProperties;
  },
  'minimum changed': (s) => {
    s.properties.nested.properties.n.minimum = 2;
  },
  'removed property': (s) => {
    delete (s.properties as Record<string, unknown>).status;
  },
};

describe('judge', () => {
  for (const [change, mutate] of Object.entries(incompatible)) {
    it(`should fail on "${change}" without a major bump, and pass with one`, () => {
      const next = structuredClone(base()) as Schema;
      mutate(next);
      const sameVersion = judge('demo/doc', base(), next);
      expect(sameVersion.join('\n')).toContain(change);
      expect(sameVersion.join('\n')).toContain('needs a major version, 2.0');
      expect(judge('demo/doc', base(), withVersion(next, '1.1'))).not.toEqual([]);
      expect(judge('demo/doc', base(), withVersion(next, '2.0'))).toEqual([]);
    });
  }

  it('should pass adding an optional property with a minor bump', () => {
    const next = structuredClone(base()) as Schema;
    (next.properties as Record<string, unknown>).note = { type: 'string', description: 'a note' };
    expect(compareSchemas(base(), next)).toEqual([
      { path: '/properties/note', change: 'added optional property "note"', compatible: true },
    ]);
    expect(judge('demo/doc', base(), withVersion(next, '1.1'))).toEqual([]);
  });

  it('should pass widening a property into an anyOf when one branch is the old schema, with a minor bump', () => {
    const next = structuredClone(base()) as Schema;
    (next.properties as Record<string, unknown>).id = {
      anyOf: [{ type: 'string', pattern: '^[a-z]+$' }, { type: 'object' }],
    };
    expect(compareSchemas(base(), next).every((c) => c.compatible)).toBe(true);
    expect(judge('demo/doc', base(), withVersion(next, '1.1'))).toEqual([]);
  });

  it('should fail an added anyOf whose branches each reject something the old schema accepted', () => {
    const next = structuredClone(base()) as Schema;
    (next.properties as Record<string, unknown>).id = {
      anyOf: [{ type: 'string', pattern: '^[a-z]{3,}$' }, { type: 'object' }],
    };
    expect(judge('demo/doc', base(), withVersion(next, '1.1')).join('\n')).toContain('added anyOf[0]');
  });

  it('should ask for a minor bump when a compatible change keeps the version', () => {
    const next = structuredClone(base()) as Schema;
    next.$defs.Status.enum.push('skipped');
    expect(judge('demo/doc', base(), next).join('\n')).toContain('needs a minor version, 1.1');
  });

  it('should pass a change of descriptions only, at the same version', () => {
    const next = structuredClone(base()) as Schema;
    next.properties.id.description = 'the id, in lower case';
    expect(judge('demo/doc', base(), next)).toEqual([]);
  });

  it('should refuse a version that goes down', () => {
    expect(judge('demo/doc', withVersion(base(), '1.3'), withVersion(base(), '1.2')).join()).toContain(
      'went down',
    );
  });
});

describe('compat.mjs', () => {
  it('should pass on the repository schemas against their last release', () => {
    const r = spawnSync(process.execPath, [compat], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('should record a release, then fail CI on an incompatible change without a major bump', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ckpt-compat-'));
    try {
      cpSync(resolve(pkg, '../../schemas'), join(dir, 'schemas'), { recursive: true });
      const env = {
        ...process.env,
        CKPT_SCHEMAS_DIR: join(dir, 'schemas'),
        CKPT_RELEASED_DIR: join(dir, 'released'),
      };
      const release = spawnSync(process.execPath, [compat, '--release'], { encoding: 'utf8', env });
      expect(release.status).toBe(0);
      expect(spawnSync(process.execPath, [compat, '--release'], { env }).status).toBe(1);
      const file = join(dir, 'schemas/team/run.schema.json');
      const schema = JSON.parse(readFileSync(file, 'utf8'));
      schema.required.push('brand_new_field');
      schema.properties.brand_new_field = { type: 'string', description: 'added as required' };
      writeFileSync(file, JSON.stringify(schema, null, 2));
      const r = spawnSync(process.execPath, [compat], { encoding: 'utf8', env });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(
        'team/run: incompatible change at /: added required property "brand_new_field"',
      );
      schema.$id = schema.$id.replace(/\/1\.\d+\.json$/, '/2.0.json');
      writeFileSync(file, JSON.stringify(schema, null, 2));
      const stale = spawnSync(process.execPath, [compat], { encoding: 'utf8', env });
      expect(stale.status).toBe(1);
      expect(stale.stderr).toContain('team/run: catalog versions has no "2.0"');
      const catalogFile = join(dir, 'schemas/catalog.json');
      const catalog = JSON.parse(readFileSync(catalogFile, 'utf8'));
      const entry = catalog.schemas.find((e: { kind: string }) => e.kind === 'team/run');
      entry.url = schema.$id;
      entry.versions['2.0'] = schema.$id;
      writeFileSync(catalogFile, JSON.stringify(catalog, null, 2));
      expect(spawnSync(process.execPath, [compat], { encoding: 'utf8', env }).stderr).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
