import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolThreads, warmPool } from '../pool/pool.js';
import { type ValidateOptions, validatePaths } from './validate-files.js';

// The report must not depend on how the per-file pass is spread: one thread against the pool (with tiny chunks,
// so that chunk boundaries fall everywhere), and both against reports recorded with the core before the records
// and the pool existed (test/*.report.json, `ckpt validate --reporter json` of commit a78918f). Pooled runs use
// core's built worker (packages/core/dist/pool/pool-worker.js): build core first.

const fixtures = resolve(import.meta.dirname, '../../../../test-fixtures');
const serial: ValidateOptions['pool'] = { threads: 1 };
const pooled: ValidateOptions['pool'] = { threads: 2, minItemsPerThread: 1, chunkSize: 7 };

function report(dir: string, opts: ValidateOptions) {
  return validatePaths(['.'], { cwd: dir, ...opts });
}

const recorded = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, 'test', name), 'utf8'));

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/**
 * A corpus made from the fixtures (every dialect, every anomaly they hold), three copies, each mutated
 * deterministically: in copy 1 every 5th team event is deleted (missing starts), in copy 2 every 7th terminal event
 * gets a conflicting twin, in copy 3 every 11th JSON file is cut in half (invalid JSON) and every 13th has a member
 * renamed (schema and --strict findings).
 */
function generate(root: string): void {
  for (let copy = 1; copy <= 3; copy++) {
    const dir = join(root, `copy-${copy}`);
    cpSync(fixtures, dir, { recursive: true });
    let n = 0;
    for (const f of walk(dir).sort()) {
      n++;
      const isEvent = f.includes('/.team/runs/') && f.includes('/events/') && f.endsWith('.json');
      if (copy === 1 && isEvent && n % 5 === 0) rmSync(f);
      else if (copy === 2 && isEvent && n % 7 === 0 && f.includes('task_finished')) {
        const text = readFileSync(f, 'utf8');
        writeFileSync(
          f.replace(/-([0-9a-f]{6})\.json$/, '-$1ff.json'),
          text.replace('"completed"', '"failed"'),
        );
      } else if (copy === 3 && f.endsWith('.json') && n % 11 === 0) {
        const text = readFileSync(f, 'utf8');
        writeFileSync(f, text.slice(0, Math.floor(text.length / 2)));
      } else if (copy === 3 && f.endsWith('.json') && n % 13 === 0) {
        writeFileSync(f, readFileSync(f, 'utf8').replace(/"([a-z_]+)":/, '"$1_x":'));
      }
    }
  }
}

describe('validate: one thread and the pool give the same report', () => {
  let corpus: string;
  beforeAll(async () => {
    corpus = mkdtempSync(join(tmpdir(), 'ckpt-pool-compare-'));
    generate(corpus);
    // A worker started ahead, given time to load core (unbundled: 0.25-0.5 s), takes chunks from the first run on.
    warmPool(2);
    await new Promise((resolve) => setTimeout(resolve, 2000));
  });
  afterAll(() => rmSync(corpus, { recursive: true, force: true }));

  it('should really start a worker for the pooled runs (core is built)', () => {
    expect(poolThreads(100, pooled)).toBe(2);
  });

  for (const [name, opts] of [
    ['plain', {}],
    ['--strict', { strict: true }],
    ['--dialect team', { dialect: 'team' }],
  ] as const) {
    it(`fixtures (${name}): pooled equals serial`, () => {
      const one = report(fixtures, { ...opts, pool: serial });
      expect(report(fixtures, { ...opts, pool: pooled })).toEqual(one);
      expect(one.files.length).toBeGreaterThan(100);
    });

    it(`generated corpus (${name}): the same when this thread checks units too`, () => {
      expect(JSON.stringify(report(corpus, { ...opts, pool: { ...pooled, callerWorks: true } }))).toBe(
        JSON.stringify(report(corpus, { ...opts, pool: serial })),
      );
    });

    it(`generated corpus (${name}): pooled equals serial`, async () => {
      // A worker loaded before the run, so that it takes its share of the chunks from the start.
      warmPool(2);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const one = report(corpus, { ...opts, pool: serial });
      const many = report(corpus, { ...opts, pool: pooled });
      expect(JSON.stringify(many)).toBe(JSON.stringify(one));
      expect(one.summary.errors).toBeGreaterThan(100);
      expect(statSync(corpus).isDirectory()).toBe(true);
    });
  }

  it('should give the same report with workers started ahead (warmPool), as the CLI starts them', () => {
    warmPool(2);
    expect(report(fixtures, { pool: pooled })).toEqual(report(fixtures, { pool: serial }));
  });

  it('fixtures: the report recorded before the pool', () => {
    const expected = recorded('fixtures.report.json');
    expect(report(fixtures, { pool: serial })).toEqual(expected);
    expect(report(fixtures, { pool: pooled })).toEqual(expected);
  });

  it('sample project: the reports recorded before the pool', () => {
    const dir = join(fixtures, 'sample-project');
    for (const [file, strict] of [
      ['sample-project.report.json', false],
      ['sample-project.strict.report.json', true],
    ] as const) {
      const expected = recorded(file);
      expect(report(dir, { strict, pool: serial })).toEqual(expected);
      expect(report(dir, { strict, pool: pooled })).toEqual(expected);
    }
  });
});
