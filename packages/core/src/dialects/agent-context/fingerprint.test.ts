import { fcParams } from '@ckpt/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FingerprintInput, fingerprint, hashFingerprintState, stableStringify } from './fingerprint.js';

const base: FingerprintInput = {
  workingTreeHash: 'fixture-tree',
  decisionAction: 'repair',
  blockingFindingIds: [],
  blockingGateIds: ['evidence.no-test-after-edit'],
  missingEvidence: ['required_tests_passed'],
  requiredCommands: ['npm test -- auth'],
  contextFreshness: 'fresh',
  contextDrift: 'clean',
  taskId: 'fix-login-timeout-bug',
  sessionId: 'orchestrator',
};

describe('fingerprint', () => {
  it('should not change with array order or duplicates', () => {
    const a = fingerprint({ ...base, requiredCommands: ['npm run lint', 'npm test -- auth'] });
    const b = fingerprint({
      ...base,
      requiredCommands: ['npm test -- auth', 'npm run lint', 'npm test -- auth', ''],
    });
    expect(b.value).toBe(a.value);
    expect(b.state.requiredCommands).toEqual(['npm run lint', 'npm test -- auth']);
  });

  it('should change when the working tree (diff) changes', () => {
    expect(fingerprint({ ...base, workingTreeHash: 'other-tree' }).value).not.toBe(fingerprint(base).value);
  });

  it('should change when evidence goes missing', () => {
    const more = fingerprint({ ...base, missingEvidence: ['required_tests_passed', 'contracts_valid'] });
    expect(more.value).not.toBe(fingerprint(base).value);
  });

  it('should fill absent taskId and sessionId with ""', () => {
    const { taskId: _t, sessionId: _s, ...rest } = base;
    const fp = fingerprint(rest);
    expect(fp.state.taskId).toBe('');
    expect(fp.state.sessionId).toBe('');
    expect(fp.value).toBe(fingerprint({ ...rest, taskId: '', sessionId: '' }).value);
  });

  it('should sort with localeCompare, which a code-point sort would not reproduce', () => {
    const fp = fingerprint({ ...base, requiredCommands: ['PORT=0 npm run e2e', 'npm test -- orders'] });
    expect(fp.state.requiredCommands).toEqual(['npm test -- orders', 'PORT=0 npm run e2e']);
    const codePoint = { ...fp.state, requiredCommands: ['PORT=0 npm run e2e', 'npm test -- orders'] };
    expect(hashFingerprintState(codePoint)).not.toBe(fp.value);
  });

  it('should equal the value OpenCode++ persisted in the fixtures', () => {
    // From test-fixtures/agent-context/valid-repeated-state-legacy-task-state, iteration 002.
    const fp = fingerprint({
      workingTreeHash: '6655f4228d4a174f4a6e3477ad53012a88b27d9f6b8e60a62e1040fc91fa0aee',
      decisionAction: 'repair',
      blockingFindingIds: ['hallucination.unknown-symbol:UserId.parse'],
      blockingGateIds: ['boundary.contract-violation'],
      missingEvidence: ['contracts_valid'],
      requiredCommands: ['npm test -- users', 'npm run contracts'],
      contextFreshness: 'fresh',
      contextDrift: 'clean',
      taskId: 'migrate-user-ids-to-uuid',
      sessionId: 'orchestrator',
    });
    expect(fp.value).toBe('779c9fe2bb5a736e1547034e5bca06bf2b592b38f0aea1c53d1da15dcfc24bb7');
  });

  it('should be invariant under any permutation and duplication of the array inputs', () => {
    const list = fc.array(fc.string({ maxLength: 12 }), { maxLength: 6 });
    fc.assert(
      fc.property(list, list, list, list, fc.integer({ min: 0, max: 1000 }), (a, b, c, d, seed) => {
        const shuffle = (xs: string[]) => {
          const out = [...xs, ...xs.filter((_, i) => (i + seed) % 3 === 0)];
          for (let i = out.length - 1; i > 0; i--) {
            const j = (seed * 31 + i * 17) % (i + 1);
            [out[i], out[j]] = [out[j]!, out[i]!];
          }
          return out;
        };
        const x = {
          ...base,
          blockingFindingIds: a,
          blockingGateIds: b,
          missingEvidence: c,
          requiredCommands: d,
        };
        const y = {
          ...x,
          blockingFindingIds: shuffle(a),
          blockingGateIds: shuffle(b),
          missingEvidence: shuffle(c),
          requiredCommands: shuffle(d),
        };
        expect(fingerprint(y).value).toBe(fingerprint(x).value);
      }),
      fcParams(200),
    );
  });
});

describe('stableStringify', () => {
  it('should sort keys with localeCompare and keep the original quirks for undefined', () => {
    expect(stableStringify({ b: 1, a: [1, undefined, 'x'], c: undefined })).toBe(
      '{"a":[1,,"x"],"b":1,"c":undefined}',
    );
    expect(stableStringify({ Z: 1, a: 2 })).toBe('{"a":2,"Z":1}');
  });
});
