import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resumableStatus } from './select.js';

const dir = resolve(import.meta.dirname, '../../../../../test-fixtures/resumable');

interface ExpectedResume {
  window: string;
  stage: string | null;
  stops: number;
}

describe('resumable fixture resume decisions', () => {
  const cases = readdirSync(dir)
    .filter((n) => existsSync(join(dir, n, 'expected.json')))
    .map((n) => ({
      n,
      e: JSON.parse(readFileSync(join(dir, n, 'expected.json'), 'utf8')) as { resume?: ExpectedResume },
    }))
    .filter((c) => c.e.resume);
  it('should have cases with a resume section', () => expect(cases.length).toBeGreaterThan(4));
  for (const c of cases) {
    it(`${c.n} should resume as expected.json says`, () => {
      const [s] = resumableStatus(join(dir, c.n));
      expect({
        window: s!.resume.window,
        stage: s!.resume.stage ?? null,
        stops: s!.resume.stops.length,
      }).toEqual(c.e.resume);
    });
  }
});
