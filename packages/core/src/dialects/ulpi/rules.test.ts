import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fcParams, tmpTree } from '@ckpt/test-utils';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDocument } from '../../check/check-document.js';
import { createTreeContext } from '../../check/validate-files.js';
import { ulpiCodes } from './codes.js';
import { ulpiRunViews } from './view-runs.js';

const t = tmpTree({ '.ulpi/runs/r.json': '{}' });
afterAll(() => t.cleanup());
const file = t.path('.ulpi/runs/r.json');
function check(doc: unknown) {
  writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc, null, 2));
  return checkDocument(file, 'r.json')!.findings.map((f) => f.code);
}
const unit = (status: string, dependsOn: string[] = [], extra = {}) => ({ status, dependsOn, ...extra });
const base = {
  schemaVersion: 2,
  id: 'r',
  status: 'running',
  updatedAt: '2026-11-29T07:13:00Z',
  openItems: [],
  resolvedItems: [],
};

describe('checkUlpiStatus', () => {
  it('should report each semantic rule', () => {
    expect(check({ ...base, status: 'done', units: { a: unit('pending') }, openItems: ['x'] })).toEqual(
      expect.arrayContaining(['ulpi/done-with-open-units', 'ulpi/done-with-open-items']),
    );
    expect(check({ ...base, units: { a: unit('dep_blocked', ['b']), b: unit('done') } })).toEqual([
      'ulpi/stale-dep-blocked',
    ]);
    expect(check({ ...base, finishedAt: '2026-11-29T07:13:00Z', units: {} })).toEqual([
      'ulpi/finished-at-on-live-run',
    ]);
    expect(check({ ...base, createdAt: '2026-11-30T00:00:00Z', units: {} })).toEqual([
      'ulpi/timestamps-out-of-order',
    ]);
    expect(check({ ...base, units: {}, launch: { scriptPath: ' ' } })).toEqual(['ulpi/malformed-launch']);
    expect(check({ ...base, units: { a: unit('pending', ['a']) } })).toEqual(['ulpi/dependency-cycle']);
    expect(
      check({
        ...base,
        status: 'done',
        requireValidation: true,
        units: {},
        phases: { x: { status: 'blocked' } },
      }),
    ).toEqual(expect.arrayContaining(['ulpi/done-without-validation', 'ulpi/done-with-open-phases']));
  });

  it('should accept what the original item verb appends, and say that a cycle or an unknown dependency blocks forever', () => {
    const items = [
      { at: 1764490500, kind: 'flake', id: 'f-1' },
      'text',
      3,
      null,
      ['a'],
      { at: 'yesterday', id: 'q' },
    ];
    expect(check({ ...base, units: {}, openItems: items })).toEqual([]);
    writeFileSync(
      file,
      JSON.stringify({ ...base, units: { a: unit('pending', ['b']), b: unit('pending', ['a', 'x']) } }),
    );
    const found = checkDocument(file, 'r.json')!.findings;
    expect(found.map((f) => [f.code, f.hint])).toEqual([
      ['ulpi/unknown-dependency', expect.stringContaining('this blocks the run forever')],
      ['ulpi/dependency-cycle', expect.stringContaining('this blocks the run forever')],
    ]);
  });

  it('should use only codes of its table (fixtures and rules)', () => {
    const fixtures = resolve(import.meta.dirname, '../../../../../test-fixtures/ulpi');
    const cases = readdirSync(fixtures).filter((c) => existsSync(join(fixtures, c, 'expected.json')));
    const used = cases.flatMap((c) =>
      (
        JSON.parse(readFileSync(join(fixtures, c, 'expected.json'), 'utf8')).findings as { code: string }[]
      ).map((f) => f.code),
    );
    for (const code of used.filter((c) => c.startsWith('ulpi/'))) expect(ulpiCodes).toHaveProperty([code]);
    for (const info of Object.values(ulpiCodes))
      expect(info.title.length * info.explanation.length).toBeGreaterThan(0);
  });

  it('should never throw on random input, in rules and in the run view', () => {
    const units = fc.dictionary(fc.constantFrom('a', 'b', '__proto__', 'constructor'), fc.anything(), {
      maxKeys: 4,
    });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record({
            schemaVersion: fc.constantFrom(1, 2),
            status: fc.string(),
            units,
            openItems: fc.anything(),
            launch: fc.anything(),
            phases: fc.anything(),
          }),
        ),
        (v) => {
          check(JSON.stringify(v) ?? 'null');
          const views = ulpiRunViews(
            t.path('.ulpi/runs'),
            createTreeContext({}, (p) => p),
          );
          expect(views.length).toBe(1);
        },
      ),
      fcParams(150),
    );
  });
});
