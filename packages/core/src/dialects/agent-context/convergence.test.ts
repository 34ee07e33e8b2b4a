import { describe, expect, it } from 'vitest';
import { convergenceProblems, evaluateConvergence } from './convergence.js';
import { fingerprint } from './fingerprint.js';

const fp = fingerprint({
  workingTreeHash: 'tree',
  decisionAction: 'repair',
  blockingFindingIds: [],
  blockingGateIds: ['g'],
  missingEvidence: ['contracts_valid'],
  requiredCommands: ['npm run contracts'],
  contextFreshness: 'fresh',
  contextDrift: 'clean',
});
const repair = { action: 'repair', blocking: true };

describe('evaluateConvergence', () => {
  it('should report repeated-state with repeated-state/no-progress for equal blocking fingerprints', () => {
    const c = evaluateConvergence({
      fingerprint: fp,
      previousFingerprint: fp,
      decision: repair,
      executorExitCode: 0,
      loopIndex: 2,
      maxLoops: 4,
    });
    expect(c).toMatchObject({
      status: 'repeated-state',
      stopReason: 'repeated-state/no-progress',
      repeated: true,
      shouldStop: true,
      previousFingerprint: fp.value,
    });
  });

  it('should report a single-loop budget stop as max-loops-reached, never repeated-state', () => {
    const c = evaluateConvergence({
      fingerprint: fp,
      decision: repair,
      executorExitCode: 0,
      loopIndex: 1,
      maxLoops: 1,
    });
    expect(c).toMatchObject({
      status: 'max-loops-reached',
      stopReason: 'max-loops-reached',
      repeated: false,
    });
    expect(c).not.toHaveProperty('previousFingerprint');
  });

  it('should check in the original order: executor failure, terminal, repeated, budget', () => {
    const args = { fingerprint: fp, previousFingerprint: fp, loopIndex: 4, maxLoops: 4 };
    expect(
      evaluateConvergence({
        ...args,
        decision: { action: 'finalize', blocking: true },
        executorExitCode: null,
      }).status,
    ).toBe('executor-failure');
    expect(
      evaluateConvergence({ ...args, decision: { action: 'finalize', blocking: true }, executorExitCode: 0 })
        .status,
    ).toBe('terminal');
    expect(evaluateConvergence({ ...args, decision: repair, executorExitCode: 0 }).status).toBe(
      'repeated-state',
    );
    expect(
      evaluateConvergence({ ...args, decision: { action: 'repair', blocking: false }, executorExitCode: 0 })
        .status,
    ).toBe('max-loops-reached');
    expect(
      evaluateConvergence({
        ...args,
        loopIndex: 2,
        decision: { action: 'repair', blocking: false },
        executorExitCode: 0,
      }),
    ).toMatchObject({ status: 'progressing', shouldStop: false });
  });
});

describe('convergenceProblems', () => {
  const stored = (c: ReturnType<typeof evaluateConvergence>) => ({
    ...c,
    value: c.fingerprint.value,
    rawAction: c.fingerprint.state.decisionAction,
  });

  it('should accept every record evaluateConvergence writes', () => {
    for (const exit of [0, 1, null])
      for (const action of ['repair', 'finalize', 'block'])
        for (const prev of [undefined, fp]) {
          const own = fingerprint({
            ...fp.state,
            decisionAction: action,
            workingTreeHash: prev ? 'tree' : 'other',
          });
          const c = evaluateConvergence({
            fingerprint: action === 'repair' ? fp : own,
            previousFingerprint: prev,
            decision: { action, blocking: true },
            executorExitCode: exit,
            loopIndex: 2,
            maxLoops: 2,
          });
          expect(
            convergenceProblems(stored(c), { executorExitCode: exit, decision: { action, blocking: true } }),
          ).toEqual([]);
        }
  });

  it('should report a status the inputs do not produce', () => {
    const c = evaluateConvergence({
      fingerprint: fp,
      decision: repair,
      executorExitCode: 0,
      loopIndex: 1,
      maxLoops: 3,
    });
    const problems = convergenceProblems({ ...stored(c), status: 'progressing' }, { executorExitCode: 2 });
    expect(problems.join()).toContain('"executor-failure"');
  });
});
