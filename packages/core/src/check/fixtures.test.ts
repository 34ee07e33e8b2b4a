import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validatePaths } from './validate-files.js';

const fixturesDir = resolve(import.meta.dirname, '../../../../test-fixtures');

interface Expected {
  description?: string;
  args?: string[];
  pending?: string;
  findings: { code: string; file: string; line: number }[];
}

function cases(): { dialect: string; name: string; dir: string; expected: Expected }[] {
  const out = [];
  for (const dialect of readdirSync(fixturesDir).sort()) {
    const ddir = join(fixturesDir, dialect);
    if (!statSync(ddir).isDirectory() || dialect === 'sample-project') continue;
    for (const name of readdirSync(ddir).sort()) {
      const dir = join(ddir, name);
      const file = join(dir, 'expected.json');
      if (!existsSync(file)) continue;
      out.push({ dialect, name, dir, expected: JSON.parse(readFileSync(file, 'utf8')) as Expected });
    }
  }
  return out;
}

const key = (f: { code: string; file: string; line: number }) => `${f.file}:${f.line} ${f.code}`;

describe('fixture corpus', () => {
  const all = cases();

  it('should hold cases for every dialect', () => {
    expect(new Set(all.map((c) => c.dialect))).toEqual(
      new Set(['agent-context', 'resumable', 'team', 'ulpi']),
    );
  });

  for (const c of all) {
    it(`${c.dialect}/${c.name} should report exactly the expected findings${c.expected.pending ? ' (pending)' : ''}`, () => {
      const args = c.expected.args ?? [];
      const dialectIdx = args.indexOf('--dialect');
      const report = validatePaths(['.'], {
        cwd: c.dir,
        strict: args.includes('--strict'),
        ...(dialectIdx >= 0 ? { dialect: args[dialectIdx + 1]! } : {}),
      });
      const actual = report.files
        .flatMap((f) => f.findings)
        .map(key)
        .sort();
      const expected = c.expected.findings.map(key).sort();
      expect(actual).toEqual(expected);
    });
  }
});
