import { readFileSync } from 'node:fs';
import { CrashError, faultyFileSystem, fcParams, tmpTree } from '@ckpt/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDocument } from '../../check/check-document.js';
import { nodeFileSystem } from '../../fs/file-system.js';
import { evaluateConvergence } from './convergence.js';
import { fingerprint } from './fingerprint.js';
import { phaseKey, resumeFrom } from './phases.js';
import {
  advanceOrchestratorState,
  createOrchestratorState,
  loadOrchestratorState,
  type OrchestratorState,
  orchestratorStatePath,
  saveOrchestratorState,
} from './write.js';

const RUN = 'fix-login-timeout-bug';
const hex = (s: string) => s.repeat(64).slice(0, 64);

/** What the orchestrator would hand the writer at each phase of a run planned for `iterations` loops. */
function updatesFor(s: OrchestratorState, iterations: number) {
  const dir = `.agent-context/runs/${RUN}/iterations/${String(s.currentIteration).padStart(3, '0')}`;
  switch (s.currentPhase) {
    case 'execute':
      return {
        executorResultReference: `${dir}/phase.execute.json`,
        workingTreeHash: hex(String(s.currentIteration)),
      };
    case 'evaluate':
      return { evaluationReference: `${dir}/phase.evaluate.json` };
    case 'decide': {
      const last = s.currentIteration >= iterations;
      const decision = {
        action: last ? 'finalize' : 'repair',
        blocking: !last,
        confidence: 0.8,
        reasons: [],
        requiredCommands: [],
        artifacts: [],
      };
      const fp = fingerprint({
        workingTreeHash: s.workingTreeHash,
        decisionAction: decision.action,
        blockingFindingIds: [],
        blockingGateIds: [],
        missingEvidence: [],
        requiredCommands: [],
        contextFreshness: 'fresh',
        contextDrift: 'clean',
        taskId: RUN,
        sessionId: 'orchestrator',
      });
      const convergence = evaluateConvergence({
        fingerprint: fp,
        previousFingerprint: s.convergence?.fingerprint,
        decision,
        executorExitCode: 0,
        loopIndex: s.currentIteration,
        maxLoops: iterations + 1,
      });
      return { latestDecision: decision, convergence };
    }
    case 'persist':
      return { iterationReference: `${dir}/iteration.report.json` };
    default:
      return {};
  }
}

let clock = Date.parse('2026-11-29T08:00:00.000Z');
const now = () => {
  clock += 1000;
  return new Date(clock).toISOString();
};

/** Drives a run to completion, saving after every transition; returns the keys completed by this call. */
function drive(dir: string, start: OrchestratorState, iterations: number, fs = nodeFileSystem) {
  let s = start;
  const done: string[] = [];
  while (s.currentPhase !== 'completed') {
    const key = phaseKey(s.currentIteration, s.currentPhase);
    s = saveOrchestratorState(dir, advanceOrchestratorState(s, updatesFor(s, iterations), now()), {
      fs,
      now: now(),
    });
    done.push(key);
  }
  return { state: s, done };
}

const fresh = () =>
  createOrchestratorState({
    runId: RUN,
    task: 'fix login timeout bug',
    repo: '/repo',
    contextFingerprint: hex('c'),
    workingTreeHash: hex('0'),
    now: now(),
  });

describe('advanceOrchestratorState', () => {
  it('should walk plan → … → completed with the transition rules and one save per transition', () => {
    const t = tmpTree();
    try {
      const { state, done } = drive(t.dir, fresh(), 2);
      expect(state.revision).toBe(done.length);
      expect(state.completedPhases).toEqual(done);
      expect(done.slice(0, 3)).toEqual(['001:plan', '001:prepare-sandbox', '001:execute']);
      expect(done).toContain('001:persist');
      expect(done).toContain('002:plan');
      expect(done.at(-1)).toBe('002:finalize');
      expect(state.completedAt).toBeDefined();
      const doc = checkDocument(orchestratorStatePath(t.dir, RUN), 'state.json');
      expect(doc?.findings).toEqual([]);
    } finally {
      t.cleanup();
    }
  });

  it('should refuse execute → collect without an executor result reference', () => {
    let s = fresh();
    s = advanceOrchestratorState(advanceOrchestratorState(s), {});
    expect(s.currentPhase).toBe('execute');
    expect(() => advanceOrchestratorState(s, {})).toThrow(/executorResultReference/);
  });

  it('should clear the executor and evaluation references when persist plans the next iteration', () => {
    let s: OrchestratorState = {
      ...fresh(),
      currentPhase: 'persist',
      executorResultReference: 'x',
      evaluationReference: 'y',
    };
    s = advanceOrchestratorState(s, { iterationReference: 'r', convergence: { shouldStop: false } as never });
    expect(s).toMatchObject({ currentPhase: 'plan', currentIteration: 2, iterationReference: 'r' });
    expect(JSON.parse(JSON.stringify(s))).not.toHaveProperty('executorResultReference');
    expect(JSON.parse(JSON.stringify(s))).not.toHaveProperty('evaluationReference');
  });
});

describe('saveOrchestratorState', () => {
  it('should refuse a save over a newer revision', () => {
    const t = tmpTree();
    try {
      const s = fresh();
      saveOrchestratorState(t.dir, advanceOrchestratorState(s));
      expect(() => saveOrchestratorState(t.dir, advanceOrchestratorState(s))).toThrow(/revision conflict/);
    } finally {
      t.cleanup();
    }
  });

  it('should leave a loadable state whose revision only grows, and never re-run a completed phase, after a crash at any step', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 260 }), (iterations, failAt) => {
        const t = tmpTree();
        try {
          const fs = faultyFileSystem(nodeFileSystem, { failAt });
          let before: OrchestratorState | null = null;
          try {
            drive(t.dir, fresh(), iterations, fs);
          } catch (e) {
            if (!(e instanceof CrashError)) throw e;
          }
          before = loadOrchestratorState(t.dir, RUN);
          const start = before ?? fresh();
          if (before) {
            const doc = checkDocument(orchestratorStatePath(t.dir, RUN), 'state.json');
            expect(doc?.findings.filter((f) => f.severity === 'error')).toEqual([]);
            expect(before.revision).toBe(before.completedPhases.length);
            const r = resumeFrom(before);
            expect(before.completedPhases).not.toContain(r.key);
            expect(r.problems).toEqual([]);
          }
          const { state, done } = drive(t.dir, start, iterations);
          expect(state.revision).toBeGreaterThanOrEqual(start.revision ?? 0);
          for (const k of done) expect(start.completedPhases).not.toContain(k);
          expect(new Set(state.completedPhases).size).toBe(state.completedPhases.length);
          expect(JSON.parse(readFileSync(orchestratorStatePath(t.dir, RUN), 'utf8')).currentPhase).toBe(
            'completed',
          );
        } finally {
          t.cleanup();
        }
      }),
      fcParams(60),
    );
  });
});
