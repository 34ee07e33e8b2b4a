import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ORCHESTRATOR_PHASES } from './constants.js';
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

/** phaseStateProblems as it was written first: every expected key listed, then filtered (the reference). */
function problemsByListing(state: Parameters<typeof phaseStateProblems>[0]): string[] {
  const done = new Set<string>();
  for (const raw of state.completedPhases) {
    const k = parsePhaseKey(raw);
    if (k) done.add(k.key);
  }
  const expected = keysBefore(state.currentPhase, state.currentIteration);
  const missing = expected.filter((k) => !done.has(k));
  const allowed = new Set(expected);
  const extra = [...done].filter((k) => !allowed.has(k));
  const listed = (keys: string[]) => {
    const shown = keys.slice(0, 4).map((k) => `"${k}"`);
    return keys.length > 4 ? `${shown.join(', ')} and ${keys.length - 4} more` : shown.join(', ');
  };
  const out: string[] = [];
  if (missing.length > 0) out.push(`lacks ${listed(missing)}`);
  if (extra.length > 0)
    out.push(`already holds ${listed(extra)}, which come${extra.length === 1 ? 's' : ''} after it`);
  return out;
}

describe('phaseStateProblems at any iteration', () => {
  it('should say what listing every expected key says', () => {
    const phase = fc.constantFrom(...ORCHESTRATOR_PHASES);
    const key = fc
      .tuple(fc.integer({ min: 0, max: 12 }), phase, fc.boolean())
      .map(([i, p, pad]) => `${pad ? String(i).padStart(3, '0') : String(i)}:${p}`);
    fc.assert(
      fc.property(
        phase,
        fc.oneof(fc.integer({ min: -2, max: 12 }), fc.double({ min: -2, max: 12, noNaN: false })),
        fc.array(key, { maxLength: 40 }),
        (currentPhase, currentIteration, completedPhases) => {
          const state = { currentPhase, currentIteration, completedPhases };
          expect(phaseStateProblems(state)).toEqual(problemsByListing(state));
        },
      ),
    );
  });

  it('should not make a key per iteration when a file says iteration 1e308', () => {
    const problems = phaseStateProblems({
      currentPhase: 'evaluate',
      currentIteration: 1e308,
      completedPhases: ['001:plan'],
    });
    expect(problems).toEqual([
      'lacks "001:prepare-sandbox", "001:execute", "001:collect", "001:evaluate" and countless more',
    ]);
    const big = {
      currentPhase: 'decide',
      currentIteration: 100_000,
      completedPhases: ['001:plan', '7:persist'],
    } as const;
    expect(phaseStateProblems(big)).toEqual(problemsByListing(big));
  });
});
