import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { describe, expect, it } from 'vitest';
import { checkDocument } from '../../check/check-document.js';
import { hashFingerprintState } from './fingerprint.js';
import { judgeFingerprint } from './fingerprint-rules.js';

// Regression tests for documents shaped as the OpenCode++ writers serialise them (FORMATS.md section 4).
const fixtures = resolve(import.meta.dirname, '../../../../../test-fixtures/agent-context');
const NEWEST = 'valid-writer-repair-then-finalize/.agent-context/runs/add-retry-budget-to-webhook-sender';
const LEGACY = 'valid-writer-legacy-executor-failure/.agent-context/runs/migrate-session-store-to-redis';

const read = (rel: string): Record<string, unknown> =>
  JSON.parse(readFileSync(`${fixtures}/${rel}`, 'utf8')) as Record<string, unknown>;

/** Checks a value as `.agent-context/runs/<run>/iterations/001/<name>` and returns its finding codes. */
function codesOf(run: string, name: 'decision.json' | 'iteration.json', value: unknown): string[] {
  const rel = `.agent-context/runs/${run}/iterations/001/${name}`;
  const t = tmpTree({ [rel]: `${JSON.stringify(value, null, 2)}\n` });
  try {
    return (checkDocument(t.path(rel), rel)?.findings ?? []).map((f) => f.code);
  } finally {
    t.cleanup();
  }
}

describe('writer-shaped fixtures', () => {
  const cases = readdirSync(fixtures).filter((c) => c.startsWith('valid-writer-'));
  const files = cases.flatMap((c) =>
    (readdirSync(join(fixtures, c), { recursive: true }) as string[])
      .filter((f) => f.endsWith('.json') && f !== 'expected.json')
      .map((f) => join(c, f)),
  );

  it('should be serialised as the writers do: JSON.stringify(value, null, 2) and one newline', () => {
    expect(files.length).toBeGreaterThanOrEqual(17);
    for (const f of files) {
      const text = readFileSync(join(fixtures, f), 'utf8');
      expect(text, f).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
      // Optional keys are left out, never null; only an unknown exit code is null.
      const nulls = [...text.matchAll(/"([^"]+)": null/g)].map((m) => m[1]);
      expect(
        nulls.filter((k) => k !== 'exitCode' && k !== 'executorExitCode'),
        f,
      ).toEqual([]);
    }
  });

  it('should keep the key order the writers build', () => {
    const decision = read(`${NEWEST}/iterations/002/decision.json`);
    expect(Object.keys(decision)).toEqual([
      'schemaVersion',
      'kind',
      'generatedAt',
      'runId',
      'iteration',
      'priorityOrder',
      'inputs',
      'convergence',
      'contextPolicy',
      'arbitration',
      'decision',
    ]);
    expect(Object.keys(decision.convergence as object)).toEqual([
      'schemaVersion',
      'fingerprint',
      'previousFingerprint',
      'repeated',
      'status',
      'shouldStop',
      'stopReason',
    ]);
    expect(Object.keys(decision.decision as object)).toEqual([
      'action',
      'blocking',
      'confidence',
      'reasons',
      'requiredCommands',
      'artifacts',
      'interventionIds',
      'arbitration',
    ]);
    const noProgress = read(
      'valid-writer-no-progress-at-finalize/.agent-context/runs/fix-cache-key-collision-in-tenant-lookup/iterations/002/decision.json',
    );
    // The intervention mapper appends interventionIds to a decision that had none (no-progress keeps only the arbitration).
    expect(Object.keys(noProgress.decision as object).slice(-2)).toEqual(['arbitration', 'interventionIds']);
  });
});

describe('decision.json priorityOrder', () => {
  const decision = read(`${NEWEST}/iterations/001/decision.json`);
  const run = 'add-retry-budget-to-webhook-sender';

  it('should accept the priority table object the engine writes', () => {
    expect(decision.priorityOrder).toMatchObject({ rollback: 100, 'no-progress': 110, finalize: 10 });
    expect(codesOf(run, 'decision.json', decision)).toEqual([]);
  });

  it('should still accept the array of actions ckpt 1.0 described', () => {
    const legacy = {
      ...decision,
      priorityOrder: ['no-progress', 'max-loops-reached', 'rollback', 'finalize'],
    };
    expect(codesOf(run, 'decision.json', legacy)).toEqual([]);
  });

  it('should report a table whose priorities are not integers, and a priorityOrder that is neither form', () => {
    const table = { ...decision, priorityOrder: { rollback: '100' } };
    expect(codesOf(run, 'decision.json', table)).toContain('schema/type');
    expect(codesOf(run, 'decision.json', { ...decision, priorityOrder: 'rollback' }).length).toBeGreaterThan(
      0,
    );
  });
});

describe('iteration.json summary', () => {
  it('should accept an iteration without contextRefresh, as releases before refresh metrics write it', () => {
    const legacy = read(`${LEGACY}/iterations/001/iteration.json`);
    expect(Object.hasOwn(legacy.summary as object, 'contextRefresh')).toBe(false);
    expect(codesOf('migrate-session-store-to-redis', 'iteration.json', legacy)).toEqual([]);
  });
});

describe('documents of the releases before convergence and arbitration', () => {
  const V011 =
    'valid-writer-0.1.1-without-convergence/.agent-context/runs/add-audit-log-retention/iterations/001';
  const EARLY =
    'valid-writer-convergence-before-arbitration/.agent-context/runs/cache-tenant-settings/iterations/001';

  it('should accept decision.json and iteration.json of opencode-plusplus 0.1.1, which carry no convergence', () => {
    const decision = read(`${V011}/decision.json`);
    const iteration = read(`${V011}/iteration.json`);
    expect(Object.keys(decision).slice(-3)).toEqual(['priorityOrder', 'inputs', 'decision']);
    expect(Object.keys(decision.priorityOrder as object)).toHaveLength(7);
    expect(Object.keys(iteration)).not.toContain('convergence');
    expect(Object.keys(iteration.summary as object).at(-1)).toBe('decision');
    expect(codesOf('add-audit-log-retention', 'decision.json', decision)).toEqual([]);
    expect(codesOf('add-audit-log-retention', 'iteration.json', iteration)).toEqual([]);
  });

  it('should accept a summary without selectedCandidate or supportingCandidates (no arbitration yet)', () => {
    const iteration = read(`${EARLY}/iteration.json`);
    const keys = Object.keys(iteration.summary as object);
    expect(keys).not.toContain('supportingCandidates');
    expect(keys.slice(-2)).toEqual(['convergence', 'fingerprint']);
    expect(codesOf('cache-tenant-settings', 'iteration.json', iteration)).toEqual([]);
  });

  it('should still judge a convergence record when one is present', () => {
    const iteration = read(`${EARLY}/iteration.json`);
    const conv = iteration.convergence as Record<string, unknown>;
    const broken = {
      ...iteration,
      convergence: { ...conv, status: 'terminal', stopReason: 'terminal-decision' },
    };
    expect(codesOf('cache-tenant-settings', 'iteration.json', broken)).toContain(
      'agent-context/convergence-mismatch',
    );
  });
});

describe('fingerprint state of the first releases (no taskId or sessionId)', () => {
  const iteration = read(`${LEGACY}/iterations/001/iteration.json`);
  const conv = iteration.convergence as { fingerprint: { value: string; state: Record<string, unknown> } };
  const { taskId: _t, sessionId: _s, ...state } = conv.fingerprint.state;

  it('should judge the value against the state as stored', () => {
    const value = hashFingerprintState(state);
    expect(judgeFingerprint({ value, state })?.matches).toBe(true);
    expect(judgeFingerprint({ value: conv.fingerprint.value, state })?.matches).toBe(false);
  });

  it('should validate such a record, and still report a value that is not its hash', () => {
    const fp = { ...conv.fingerprint, value: hashFingerprintState(state), state };
    const doc = {
      ...iteration,
      convergence: { ...conv, fingerprint: fp },
      summary: { ...(iteration.summary as object), fingerprint: fp.value },
    };
    expect(codesOf('migrate-session-store-to-redis', 'iteration.json', doc)).toEqual([]);
    const edited = {
      ...doc,
      convergence: { ...conv, fingerprint: { ...fp, value: conv.fingerprint.value } },
    };
    expect(codesOf('migrate-session-store-to-redis', 'iteration.json', edited)).toContain(
      'agent-context/fingerprint-mismatch',
    );
  });
});
