import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CrashError, faultyFileSystem, fcParams, tmpTree } from '@ckpt/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CkptError } from '../../errors.js';
import { nodeFileSystem } from '../../fs/file-system.js';
import { valuesOf } from './load.js';
import { parseRunLog } from './run-log.js';
import { driveToPushConfirmed, freshRun, loadFresh, testInit, testWriter } from './test-helpers.js';
import {
  appendResumableLog,
  finalizeResumableRun,
  initResumableRun,
  markResumableStageDone,
  setResumableCheck,
} from './write.js';
import { acquireResumableLock, releaseResumableLock } from './write-lock.js';

const me = testWriter;
const probe = testWriter.probe;

type Verb =
  | { v: 'check'; stage: string; item: string; value: '0' | '1' }
  | { v: 'done'; stage: string }
  | { v: 'log' }
  | { v: 'finalize' }
  | { v: 'lock' }
  | { v: 'unlock' };

const ITEMS: [string, string][] = [
  ['S1', 'A'],
  ['S1', 'B'],
  ['S2', 'C'],
  ['S3', 'PUSH_ATTEMPTED'],
  ['S3', 'REMOTE_CONFIRMED'],
];
const verbArb: fc.Arbitrary<Verb> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .record({
        v: fc.constant('check' as const),
        pick: fc.nat(ITEMS.length - 1),
        value: fc.constantFrom('0' as const, '1' as const),
      })
      .map(({ pick, value }) => ({
        v: 'check' as const,
        stage: ITEMS[pick]![0],
        item: ITEMS[pick]![1],
        value,
      })),
  },
  { weight: 3, arbitrary: fc.constantFrom('S1', 'S2', 'S3').map((stage) => ({ v: 'done' as const, stage })) },
  { weight: 1, arbitrary: fc.constant({ v: 'log' as const }) },
  { weight: 2, arbitrary: fc.constant({ v: 'finalize' as const }) },
  { weight: 1, arbitrary: fc.constant({ v: 'lock' as const }) },
  { weight: 1, arbitrary: fc.constant({ v: 'unlock' as const }) },
);

function run(root: string, verb: Verb, fs: typeof nodeFileSystem) {
  const o = { ...me, fs };
  if (verb.v === 'check') return setResumableCheck(root, verb.stage, verb.item, verb.value, o);
  if (verb.v === 'done') return markResumableStageDone(root, verb.stage, o);
  if (verb.v === 'log') return appendResumableLog(root, 'note', o);
  if (verb.v === 'finalize') return finalizeResumableRun(root, o);
  if (verb.v === 'lock') return acquireResumableLock(root, o);
  return releaseResumableLock(root, o);
}

function assertSound(root: string) {
  const { run: r, findings } = loadFresh(root, probe);
  expect(r.state?.usable).toBe(true);
  expect(r.checklist?.usable).toBe(true);
  // The lock this test's writer holds is live by design; every other error would break the invariant.
  const bad = findings.filter((f) => f.severity === 'error' && f.code !== 'resumable/lock-active');
  expect(bad).toEqual([]);
}

describe('resumable writers under crashes', () => {
  it('should leave parsable files and never a done stage with open checks, whatever verb crashes at whatever step', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(verbArb, fc.option(fc.integer({ min: 1, max: 14 }), { nil: undefined })), {
          maxLength: 14,
        }),
        (steps) => {
          const { t, root } = freshRun();
          try {
            for (const [verb, failAt] of steps) {
              const fs = faultyFileSystem(nodeFileSystem, failAt === undefined ? {} : { failAt });
              try {
                run(root, verb, fs);
              } catch (e) {
                if (!(e instanceof CrashError) && !(e instanceof CkptError)) throw e;
              }
              assertSound(root);
            }
          } finally {
            t.cleanup();
          }
        },
      ),
      fcParams(40),
    );
  });

  it('should yield exactly one summary block and the same flags however often finalize runs and crashes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }), {
          minLength: 1,
          maxLength: 8,
        }),
        (fails) => {
          const { t, root } = freshRun();
          try {
            driveToPushConfirmed(root);
            for (const failAt of [...fails, undefined]) {
              try {
                finalizeResumableRun(root, {
                  ...me,
                  fs: faultyFileSystem(nodeFileSystem, failAt === undefined ? {} : { failAt }),
                });
              } catch (e) {
                if (!(e instanceof CrashError)) throw e;
              }
              assertSound(root);
            }
            const lines = parseRunLog(readFileSync(join(root, 'run.log'), 'utf8'));
            expect(lines.filter((l) => l.summaryRunId === '20261129T100000Z')).toHaveLength(1);
            const s = valuesOf(loadFresh(root, probe).run.state)!;
            expect([
              s.CANONICAL_STATE_UPDATED,
              s.REPORT_APPENDED,
              s.RUN_SUMMARY_UPDATED,
              s.CURRENT_STAGE,
            ]).toEqual(['1', '1', '1', 'DONE']);
          } finally {
            t.cleanup();
          }
        },
      ),
      fcParams(30),
    );
  });

  it('should recover an init interrupted at any step by running init again', () => {
    for (let failAt = 1; failAt < 40; failAt++) {
      const t = tmpTree();
      const fs = faultyFileSystem(nodeFileSystem, { failAt });
      let crashed = false;
      try {
        initResumableRun(testInit(t.dir), { ...me, fs });
      } catch (e) {
        if (!(e instanceof CrashError)) throw e;
        crashed = true;
      }
      let root: string;
      try {
        root = initResumableRun(testInit(t.dir), me);
      } catch (e) {
        expect((e as CkptError).code).toBe('REFUSED');
        root = join(t.dir, 'reports', 'demo-20261129T100000Z');
      }
      const { findings } = loadFresh(root, probe);
      expect(findings.filter((f) => f.severity !== 'info')).toEqual([]);
      t.cleanup();
      if (!crashed) break;
    }
  });
});
