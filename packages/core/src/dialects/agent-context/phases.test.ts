import { describe, expect, it } from 'vitest';
import { keysBefore, parsePhaseKey, phaseStateProblems, resumeFrom } from './phases.js';

describe('resumeFrom', () => {
  it('should continue at currentPhase and skip every completed key', () => {
    const completedPhases = keysBefore('evaluate', 2);
    const r = resumeFrom({ currentPhase: 'evaluate', currentIteration: 2, completedPhases });
    expect(r).toMatchObject({ key: '002:evaluate', done: false, problems: [] });
    expect(r.skip).toEqual(completedPhases);
    expect(completedPhases).toContain('001:persist');
  });

  it('should never point at a completed phase, even in an inconsistent state', () => {
    const completedPhases = [...keysBefore('decide', 1), '001:decide'];
    const r = resumeFrom({
      currentPhase: 'decide',
      currentIteration: 1,
      completedPhases,
      convergence: { shouldStop: true },
    });
    expect(r.key).toBe('001:persist');
    expect(r.problems.join()).toContain('001:decide');
  });
});

describe('phaseStateProblems', () => {
  it('should report decide without NNN:evaluate', () => {
    const keys = keysBefore('decide', 1).filter((k) => k !== '001:evaluate');
    expect(
      phaseStateProblems({ currentPhase: 'decide', currentIteration: 1, completedPhases: keys }),
    ).toEqual(['lacks "001:evaluate"']);
  });
});

describe('parsePhaseKey', () => {
  it('should read badly written keys for what they mean and say why', () => {
    expect(parsePhaseKey('1:plan')).toMatchObject({ key: '001:plan', problem: 'not-padded' });
    expect(parsePhaseKey('002:Decide')).toMatchObject({ key: '002:decide', problem: 'case' });
    expect(parsePhaseKey('002:verify')).toBeUndefined();
    expect(parsePhaseKey('002:decide')).toEqual({ iteration: 2, phase: 'decide', key: '002:decide' });
  });
});
