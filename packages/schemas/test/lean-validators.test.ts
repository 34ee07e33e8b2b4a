import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { leanValidatorCode } from '../scripts/lean-validators.mjs';
import { listSchemaFiles, repoDir } from '../scripts/schema-files.mjs';
import { OUR_UCS2LENGTH, standaloneValidatorCode } from '../scripts/standalone-code.mjs';

const require = createRequire(import.meta.url);

type Validator = ((data: unknown) => boolean) & { errors?: unknown };

/** Evaluates a validator's CommonJS code, its dist-relative requires pointed at scripts/. */
function load(code: string): Validator {
  const mod = { exports: {} as Validator };
  const req = (id: string) =>
    id === '../../formats.cjs'
      ? require('../scripts/formats.cjs')
      : id === '../../ucs2length.cjs'
        ? require('../scripts/ucs2length.cjs')
        : require(id);
  new Function('module', 'exports', 'require', code)(mod, mod.exports, req);
  return mod.exports;
}

/** Every value the fixtures hold as a parser makes it: JSON documents, JSONL lines, env files (null prototype). */
function fixtureValues(): unknown[] {
  const out: unknown[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const text = readFileSync(p, 'utf8');
        const parse = (t: string) => {
          try {
            out.push(JSON.parse(t));
          } catch {}
        };
        if (e.name.endsWith('.json')) parse(text);
        else if (e.name.endsWith('.jsonl')) for (const line of text.split('\n')) parse(line);
        else if (e.name.endsWith('.env') || e.name.endsWith('.lock')) {
          const env: Record<string, string> = Object.create(null);
          for (const line of text.split('\n')) {
            const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
            if (m) env[m[1]!] = m[2]!.replace(/^"(.*)"$/, '$1');
          }
          out.push(env);
        }
      }
    }
  };
  walk(join(repoDir as string, 'test-fixtures'));
  return out;
}

const REPLACEMENTS: unknown[] = [
  null,
  0,
  1,
  -1,
  1.5,
  true,
  '',
  'x',
  'a'.repeat(300),
  '\u{1F600}',
  '2026-10-28T13:10:16Z',
  '../etc',
  [],
  ['a', 1],
  {},
];

const copy = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

/** The same value with every object's prototype null (what the env parser makes). */
function nullProto(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(nullProto);
  if (v === null || typeof v !== 'object') return v;
  const o: Record<string, unknown> = Object.create(null);
  for (const [k, x] of Object.entries(v)) o[k] = nullProto(x);
  return o;
}

/** Each member of each object in `v` (to depth 3) deleted, and replaced by each of REPLACEMENTS; then the names of
 * Object.prototype's members added, as JSON.parse makes them own. */
function* mutations(v: unknown): Generator<unknown> {
  const paths: (string | number)[][] = [];
  const visit = (x: unknown, path: (string | number)[]) => {
    if (x === null || typeof x !== 'object' || path.length > 3) return;
    for (const [k, y] of Object.entries(x)) {
      const p = [...path, Array.isArray(x) ? Number(k) : k];
      paths.push(p);
      visit(y, p);
    }
  };
  visit(v, []);
  const at = (root: unknown, path: (string | number)[]) => {
    let x = root as Record<string | number, unknown>;
    for (const k of path.slice(0, -1)) x = x[k] as Record<string | number, unknown>;
    return x;
  };
  for (const p of paths) {
    const gone = copy(v);
    const parent = at(gone, p);
    if (Array.isArray(parent)) parent.splice(p[p.length - 1] as number, 1);
    else delete parent[p[p.length - 1]!];
    yield gone;
    for (const r of REPLACEMENTS) {
      const changed = copy(v);
      at(changed, p)[p[p.length - 1]!] = copy(r);
      yield changed;
    }
  }
  if (v !== null && typeof v === 'object' && !Array.isArray(v))
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'])
      yield JSON.parse(JSON.stringify(v).replace(/^\{/, `{"${name}":${JSON.stringify({ event: 'x' })},`));
}

describe('lean validators (scripts/lean-validators.mjs)', () => {
  const values = fixtureValues();
  const entries = listSchemaFiles() as { id: string; schema: object }[];

  it('rewrites the hot kinds (no hasOwnProperty call for a named member, no option objects)', () => {
    const event = entries.find((e) => e.id === 'team/task-event')!;
    const lean = leanValidatorCode(standaloneValidatorCode(event.schema), OUR_UCS2LENGTH) as string;
    expect(lean).not.toMatch(/func\d+\.call\(data/);
    expect(lean).not.toContain('dynamicAnchors');
    expect(lean).toContain('data3.length < 1');
  });

  for (const e of entries)
    it(`${e.id}: the same answer and errors as ajv's code on the fixtures and their mutations`, () => {
      const code = standaloneValidatorCode(e.schema);
      const theirs = load(code);
      const ours = load(leanValidatorCode(code, OUR_UCS2LENGTH));
      let compared = 0;
      let valid = 0;
      const same = (v: unknown) => {
        const a = theirs(v);
        const b = ours(v);
        const ea = JSON.stringify(theirs.errors);
        const eb = JSON.stringify(ours.errors);
        if (a !== b || ea !== eb) expect({ v, b, eb }).toEqual({ v, b: a, eb: ea });
        compared++;
        if (a) valid++;
      };
      const bases: unknown[] = [];
      for (const v of values) {
        same(v);
        same(nullProto(v));
        if (theirs(v) && bases.length < 40) bases.push(v);
      }
      for (const base of bases)
        for (const m of mutations(base)) {
          same(m);
          same(nullProto(m));
        }
      // The validator also with the options ajv passes to a sub-validator.
      const withPath = (v: unknown) => {
        const a = theirs.call(undefined, v, { instancePath: '/x' } as never);
        const ea = JSON.stringify(theirs.errors);
        const b = ours.call(undefined, v, { instancePath: '/x' } as never);
        expect([b, JSON.stringify(ours.errors)]).toEqual([a, ea]);
      };
      for (const v of values.slice(0, 200)) withPath(v);
      expect(compared).toBeGreaterThan(2 * values.length);
      expect(valid).toBeGreaterThan(0);
    });
});
