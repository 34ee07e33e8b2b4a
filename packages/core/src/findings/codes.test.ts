import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validatePaths } from '../check/validate-files.js';
import { dialects } from '../dialects/registry.js';
import { allCodes } from './codes.js';
import { genericCodes } from './generic-codes.js';

const fixtures = resolve(import.meta.dirname, '../../../../test-fixtures');

function expectedCodes(): Set<string> {
  const out = new Set<string>();
  for (const d of readdirSync(fixtures)) {
    if (!statSync(join(fixtures, d)).isDirectory()) continue;
    for (const c of readdirSync(join(fixtures, d))) {
      const f = join(fixtures, d, c, 'expected.json');
      if (!existsSync(f)) continue;
      for (const x of JSON.parse(readFileSync(f, 'utf8')).findings as { code: string }[]) out.add(x.code);
    }
  }
  return out;
}

describe('the code table', () => {
  const table = allCodes();

  it('should document every code with a severity, a title and an explanation', () => {
    for (const [code, info] of Object.entries(table)) {
      expect(code).toMatch(/^[a-z-]+\/[a-z0-9-]+$/);
      expect(['error', 'warning', 'info']).toContain(info.severity);
      expect(info.title.length, code).toBeGreaterThan(10);
      expect(info.explanation.length, code).toBeGreaterThan(20);
    }
  });

  it('should keep each dialect to its own prefix, and no code in two tables', () => {
    const seen = new Set(Object.keys(genericCodes));
    for (const d of dialects) {
      for (const code of Object.keys(d.codes)) {
        expect(code.startsWith(`${d.id}/`), code).toBe(true);
        expect(seen.has(code), code).toBe(false);
        seen.add(code);
      }
    }
  });

  it('should hold every code the fixtures expect and every code validate reports on them', () => {
    const report = validatePaths(['.'], { cwd: fixtures, strict: true });
    const emitted = new Set(report.files.flatMap((f) => f.findings.map((x) => x.code)));
    for (const code of [...expectedCodes(), ...emitted]) expect(table[code], code).toBeDefined();
  });
});
