// Finds example documents in test-fixtures/: a valid document of each kind (the shortest one that checks clean),
// and for each finding code the fixture case that shows it (bad) and a valid case with the same kind (good).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkDocument } from '../dist/index.js';

export function createExamples(repoDir) {
  const fixturesDir = join(repoDir, 'test-fixtures');
  const checked = new Map();
  const check = (abs, base) => {
    if (!checked.has(abs)) {
      const doc = checkDocument(abs, relative(base, abs).replace(/\\/g, '/'));
      checked.set(
        abs,
        doc
          ? { kind: doc.kind, text: doc.text, clean: !doc.findings.some((f) => f.severity === 'error') }
          : undefined,
      );
    }
    return checked.get(abs);
  };
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .flatMap((e) =>
        e.isDirectory() ? walk(join(dir, e.name)) : e.name === 'expected.json' ? [] : [join(dir, e.name)],
      );
  const cases = (dialect) => {
    const dir = join(fixturesDir, dialect);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .sort()
      .filter((c) => existsSync(join(dir, c, 'expected.json')))
      .map((c) => ({
        name: `${dialect}/${c}`,
        dir: join(dir, c),
        expected: JSON.parse(readFileSync(join(dir, c, 'expected.json'), 'utf8')),
      }));
  };
  const validCases = (dialect) => cases(dialect).filter((c) => c.expected.findings.length === 0);
  const project = join(fixturesDir, 'sample-project');

  /** The shortest clean document of a kind, from the dialect's clean fixture cases or the sample project. */
  function documentOf(kind) {
    const dialect = kind.split('/')[0];
    const pools = [...validCases(dialect).map((c) => c.dir), ...(existsSync(project) ? [project] : [])];
    let best;
    for (const base of pools)
      for (const abs of walk(base)) {
        const doc = check(abs, base);
        if (doc?.kind === kind && doc.clean && (!best || doc.text.length < best.text.length))
          best = { text: doc.text, source: relative(repoDir, abs).replace(/\\/g, '/') };
      }
    return best;
  }

  /** A fixture case whose expected findings hold `code`, with the file and line of the first one. */
  function badOf(dialect, codeName) {
    const all = cases(dialect).filter((c) => c.expected.findings.some((f) => f.code === codeName));
    const c = all.find((x) => x.name.includes('/semantic-')) ?? all[0];
    if (!c) return undefined;
    const f = c.expected.findings.find((x) => x.code === codeName);
    const abs = join(c.dir, f.file);
    if (!existsSync(abs) || !statSync(abs).isFile()) return undefined;
    return {
      case: c.name,
      description: c.expected.description,
      file: f.file,
      line: f.line,
      text: readFileSync(abs, 'utf8'),
      kind: check(abs, c.dir)?.kind,
    };
  }

  /** A clean fixture case that has a document of `kind`. */
  function goodOf(dialect, kind) {
    for (const c of validCases(dialect))
      for (const abs of walk(c.dir)) {
        const doc = check(abs, c.dir);
        if (doc?.kind === kind && doc.clean)
          return {
            case: c.name,
            description: c.expected.description,
            file: relative(c.dir, abs).replace(/\\/g, '/'),
            text: doc.text,
          };
      }
    return undefined;
  }
  return { documentOf, badOf, goodOf };
}

/** Lines `from`..`to` (1-based, inclusive) of a text, clipped, with `…` where lines were left out. */
export function excerpt(text, around, before = 4, after = 6) {
  const lines = text.replace(/\n$/, '').split('\n');
  if (lines.length <= before + after + 6) return lines.join('\n');
  const from = Math.max(1, around - before);
  const to = Math.min(lines.length, around + after);
  return [from > 1 ? '…' : '', ...lines.slice(from - 1, to), to < lines.length ? '…' : '']
    .filter((l, i, a) => l !== '' || (i > 0 && i < a.length - 1))
    .join('\n');
}
