import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { catalog, createValidator, kinds, schemas } from '../src/index.js';

type Node = { [k: string]: unknown };
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

function walk(node: unknown, path: string, visit: (n: Node, path: string) => void): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    node.forEach((x, i) => walk(x, `${path}/${i}`, visit));
    return;
  }
  visit(node as Node, path);
  for (const [k, v] of Object.entries(node)) walk(v, `${path}/${k}`, visit);
}

describe('schemas', () => {
  it('should hold every document kind of FORMATS.md', () => {
    expect(kinds.map((k) => k.id).sort()).toEqual(
      [
        'agent-context/decision',
        'agent-context/iteration',
        'agent-context/orchestrator-state',
        'agent-context/task-state',
        'resumable/checklist-env',
        'resumable/contract-env',
        'resumable/lock',
        'resumable/state-env',
        'team/approval',
        'team/run',
        'team/task-event',
        'ulpi/event-log-line',
        'ulpi/status-v1',
        'ulpi/status-v2',
      ].sort(),
    );
  });

  for (const [id, schema] of Object.entries(schemas)) {
    describe(id, () => {
      it('should compile in ajv strict mode', () => {
        const ajv = new Ajv2020({ strict: true });
        addFormats(ajv);
        expect(() => ajv.compile(schema as object)).not.toThrow();
      });

      it('should have a versioned $id that mirrors its path, and draft 2020-12', () => {
        expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
        expect(schema.$id).toMatch(new RegExp(`^https://ckpt\\.dev/schemas/${id}/\\d+\\.\\d+\\.json$`));
      });

      it('should describe every property and keep title on the root only', () => {
        expect(typeof schema.title).toBe('string');
        expect(typeof schema.description).toBe('string');
        walk(schema, '', (n, path) => {
          if (path !== '' && !path.endsWith('/properties') && !path.endsWith('/patternProperties')) {
            expect(n.title, `title at ${path}`).toBeUndefined();
          }
          for (const key of ['properties', 'patternProperties'] as const) {
            const props = n[key] as Record<string, Node> | undefined;
            if (!props || path.endsWith('/properties') || /\/(if|then|else|not)(\/|$)/.test(path)) continue;
            for (const [name, sub] of Object.entries(props)) {
              expect(typeof sub.description, `description of ${path}/${key}/${name}`).toBe('string');
            }
          }
        });
      });

      it('should keep to the portable subset', () => {
        walk(schema, '', (n, path) => {
          for (const k of Object.keys(n)) {
            if (
              path.endsWith('/properties') ||
              path.endsWith('/patternProperties') ||
              path.endsWith('/$defs')
            )
              continue;
            expect(
              ['prefixItems', '$dynamicRef', '$dynamicAnchor', 'unevaluatedProperties', 'unevaluatedItems'],
              `${k} at ${path}`,
            ).not.toContain(k);
            expect(k.startsWith('x-'), `${k} at ${path}`).toBe(false);
          }
        });
        const defs = (schema.$defs ?? {}) as Record<string, unknown>;
        for (const name of Object.keys(defs)) expect(name).toMatch(/^[A-Z][A-Za-z0-9]*$/);
      });
    });
  }

  it('should map every catalog entry to existing schemas with url equal to $id', () => {
    for (const entry of catalog.schemas) {
      const ids = entry.kinds ?? [entry.kind];
      for (const id of ids) expect(Object.keys(schemas)).toContain(id);
      expect(entry.url).toBe((schemas[entry.kind as keyof typeof schemas] as { $id: string }).$id);
      expect(entry.fileMatch.length).toBeGreaterThan(0);
      expect(entry.versions).toBeDefined();
    }
    const covered = new Set(catalog.schemas.flatMap((e) => e.kinds ?? [e.kind]));
    expect([...covered].sort()).toEqual(Object.keys(schemas).sort());
  });

  it('should validate with formats asserted through createValidator', () => {
    const validate = createValidator('team/approval');
    expect(
      validate({ stage: 'build', artifact: 'a.md', sha256: 'x', by: 'me', approved_at: 'yesterday' }),
    ).toBe(false);
    expect(validate.errors?.some((e) => e.keyword === 'format')).toBe(true);
  });
});
