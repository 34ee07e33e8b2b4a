import { CrashError, faultyFileSystem, fcParams, tmpTree } from '@ckpt/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validatePaths } from '../../check/validate-files.js';
import { CkptError } from '../../errors.js';
import { nodeFileSystem } from '../../fs/file-system.js';
import { loadTeamRuns } from './status.js';
import { approveTeamStage, finishTeamTask, retryTeamTask, startTeamRun, startTeamTask } from './write.js';

const TASKS = ['t1', 't2', 't3'] as const;
const STATUSES = ['completed', 'failed', 'interrupted', 'awaiting_approval'] as const;

type Op =
  | { kind: 'start'; task: string }
  | { kind: 'finish'; task: string; status: (typeof STATUSES)[number] }
  | { kind: 'retry'; task: string }
  | { kind: 'approve' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('start' as const), task: fc.constantFrom(...TASKS) }),
  fc.record({
    kind: fc.constant('finish' as const),
    task: fc.constantFrom(...TASKS),
    status: fc.constantFrom(...STATUSES),
  }),
  fc.record({ kind: fc.constant('retry' as const), task: fc.constantFrom(...TASKS) }),
  fc.record({ kind: fc.constant('approve' as const) }),
);

/** Each op runs in a "process" that may die (or get an I/O error) at its k-th mutating system call. */
const stepArb = fc.record({
  op: opArb,
  fault: fc.option(
    fc.record({
      at: fc.integer({ min: 1, max: 16 }),
      mode: fc.constantFrom('crash' as const, 'error' as const),
    }),
    { freq: 2 },
  ),
});

describe('team writers under crashes', () => {
  it('should leave a tree the reader accepts, never completing an unfinished attempt nor losing a completed one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 26 }),
        fc.array(stepArb, { maxLength: 7 }),
        (runCrashAt, steps) => {
          const t = tmpTree({ '.team/07-build.md': 'build notes\n' });
          try {
            const dir = t.dir;
            try {
              startTeamRun({
                projectDir: dir,
                profile: 'new',
                stage: 'build',
                fs: faultyFileSystem(nodeFileSystem, { failAt: runCrashAt }),
              });
            } catch (e) {
              if (!(e instanceof CrashError)) throw e;
            }
            const run =
              loadTeamRuns(dir).selected?.id ??
              startTeamRun({ projectDir: dir, profile: 'new', stage: 'build' }).runId;
            const finishedCompleted = new Set<string>(); // returned: must read completed
            const triedCompleted = new Set<string>(); // returned or crashed: may read completed
            for (const { op, fault } of steps) {
              const fs = faultyFileSystem(
                nodeFileSystem,
                fault ? { failAt: fault.at, mode: fault.mode } : {},
              );
              const base = { projectDir: dir, run, fs };
              const latest = (task: string) =>
                loadTeamRuns(dir)
                  .models.find((m) => m.id === run)!
                  .tasks.find((x) => x.id === task)?.latest.attempt;
              try {
                if (op.kind === 'start')
                  startTeamTask({ ...base, task: op.task, stage: 'build', agent: 'fe' });
                else if (op.kind === 'retry') retryTeamTask({ ...base, task: op.task, reason: 'again' });
                else if (op.kind === 'approve')
                  approveTeamStage({ ...base, stage: 'build', artifact: '.team/07-build.md', by: 'samet' });
                else {
                  const key = `${op.task}#${latest(op.task)}`;
                  if (op.status === 'completed') triedCompleted.add(key);
                  const r = finishTeamTask({ ...base, task: op.task, status: op.status });
                  if (op.status === 'completed') finishedCompleted.add(`${op.task}#${r.attempt}`);
                }
              } catch (e) {
                const expected =
                  e instanceof CrashError ||
                  (e instanceof CkptError && (e.code === 'REFUSED' || e.code === 'WRITE')) ||
                  /injected failure/.test(String((e as Error).message));
                if (!expected) throw e;
              }
            }
            const model = loadTeamRuns(dir).models.find((m) => m.id === run)!;
            for (const task of model.tasks)
              for (const a of task.attempts) {
                const key = `${task.id}#${a.attempt}`;
                if (a.status === 'completed') expect(triedCompleted.has(key), key).toBe(true);
                if (finishedCompleted.has(key)) expect(a.status, key).toBe('completed');
                if (a.terminals.length === 0) expect(a.status).toBe('running (uncertain)');
              }
            for (const key of finishedCompleted) {
              const [task, n] = key.split('#');
              expect(
                model.tasks.find((x) => x.id === task)?.attempts.find((a) => a.attempt === Number(n))?.status,
              ).toBe('completed');
            }
            const report = validatePaths(['.'], { cwd: dir });
            const errors = report.files.flatMap((f) => f.findings).filter((f) => f.severity === 'error');
            expect(errors).toEqual([]);
          } finally {
            t.cleanup();
          }
        },
      ),
      fcParams(100),
    );
  }, 60_000);
});
