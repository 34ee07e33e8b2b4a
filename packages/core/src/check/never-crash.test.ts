import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fcParams, tmpTree } from '@ckpt/test-utils';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProject } from '../view/load-project.js';
import { validatePaths } from './validate-files.js';

/** One path per catalog pattern, inside a project that has the other files of each dialect's tree. */
const paths = [
  '.team/runs/current',
  '.team/runs/20261028T131016577943Z-20fe61/run.json',
  '.team/runs/20261028T131016577943Z-20fe61/events/20261028T131100490636Z-task_started-build-fe-a1-bfd642.json',
  '.team/runs/20261028T131016577943Z-20fe61/approvals/20261028T133100825467Z-build-157165.json',
  '.ulpi/runs/run-1.json',
  '.ulpi/runs/run-1.events.jsonl',
  '.agent-context/runs/fix-bug/state.json',
  '.agent-context/runs/fix-bug/iterations/001/iteration.json',
  '.agent-context/runs/fix-bug/iterations/001/decision.json',
  '.agent-context/orchestrator/fix-bug/state.json',
  'cfg/reports/release-20261128T101500Z/state.env',
  'cfg/reports/release-20261128T101500Z/checklist.state.env',
  'cfg/reports/release-20261128T101500Z/run.lock',
  'cfg/reports/release-20261128T101500Z/run.log',
];

const content = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.json({ maxDepth: 4 }),
  fc
    .jsonValue({ maxDepth: 3 })
    .map((v) => JSON.stringify({ schemaVersion: 2, units: v, status: v, event: v, state: v })),
  fc
    .dictionary(
      fc.constantFrom('RUN_ID', 'S1_DONE', 'CB_S1_X', 'CURRENT_STAGE', 'pid', '__proto__'),
      fc.string({ maxLength: 20 }),
    )
    .map((d) =>
      Object.entries(d)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n'),
    ),
);

describe('any bytes in any checkpoint file', () => {
  const tree = tmpTree();
  afterAll(() => tree.cleanup());

  it('should never crash validate nor the run loaders, and every finding has a place', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...paths), content), { minLength: 1, maxLength: 6 }),
        (files) => {
          rmSync(tree.dir, { recursive: true, force: true });
          for (const [rel, body] of files) {
            const p = join(tree.dir, rel);
            mkdirSync(dirname(p), { recursive: true });
            writeFileSync(p, body);
          }
          const report = validatePaths(['.'], { cwd: tree.dir });
          for (const f of report.files.flatMap((x) => x.findings)) {
            expect(f.line).toBeGreaterThanOrEqual(1);
            expect(f.column).toBeGreaterThanOrEqual(1);
            expect(typeof f.message).toBe('string');
          }
          const runs = loadProject(tree.dir);
          expect(JSON.parse(JSON.stringify(runs))).toHaveLength(runs.length);
        },
      ),
      fcParams(150),
    );
  });
});
