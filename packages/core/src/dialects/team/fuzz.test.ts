import { cpSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fcParams, tmpTree } from '@ckpt/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validatePaths } from '../../check/validate-files.js';
import { loadProject } from '../../view/load-project.js';
import { teamStatus } from './status.js';

const fixture = resolve(import.meta.dirname, '../../../../../test-fixtures/team/valid-retry-after-failure');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .filter((p) => p.startsWith('.team/runs/'))
    .sort();
}

const eventish = fc.record(
  {
    event: fc.oneof(fc.constantFrom('task_started', 'task_finished'), fc.jsonValue()),
    at: fc.oneof(fc.constant('2026-11-02T09:00:00Z'), fc.string()),
    run_id: fc.oneof(fc.constant('20261102T084455120388Z-9b07e4'), fc.jsonValue()),
    task_id: fc.oneof(fc.constantFrom('build-fe-20261102T0845Z', '__proto__', 'constructor'), fc.jsonValue()),
    stage: fc.jsonValue(),
    agent: fc.string(),
    attempt: fc.oneof(fc.integer({ min: -2, max: 4 }), fc.double(), fc.jsonValue()),
    status: fc.oneof(fc.constantFrom('running', 'completed', 'failed', 'conflict'), fc.jsonValue()),
    inputs: fc.oneof(fc.array(fc.string({ unit: 'binary' })), fc.jsonValue()),
    artifacts: fc.array(fc.constantFrom('.team/07-build-fe.md', '/etc/passwd', '../x', '')),
    evidence: fc.string({ unit: 'binary' }),
    next: fc.string(),
    retry_of: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

const content = fc.oneof(
  fc.uint8Array({ maxLength: 200 }),
  fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null'),
  eventish.map((v) => JSON.stringify(v, null, 2)),
  fc.string({ unit: 'binary' }),
);

describe('team reader on random input', () => {
  it('should never throw when any checkpoint file holds random bytes or random JSON', () => {
    const names = filesUnder(fixture);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...names), content), { minLength: 1, maxLength: 3 }),
        (edits) => {
          const t = tmpTree();
          try {
            cpSync(fixture, t.dir, { recursive: true });
            for (const [name, data] of edits) writeFileSync(join(t.dir, name), data);
            const s = teamStatus(t.dir);
            expect(s.formatVersion).toBe(1);
            JSON.stringify(s);
            const views = loadProject(t.dir, { dialects: ['team'] });
            for (const v of views)
              for (const u of v.units) for (const a of u.attempts) expect(typeof a.status).toBe('string');
            const report = validatePaths(['.'], { cwd: t.dir });
            expect(report.summary.files).toBeGreaterThan(0);
          } finally {
            t.cleanup();
          }
        },
      ),
      fcParams(60),
    );
  }, 60_000);
});
