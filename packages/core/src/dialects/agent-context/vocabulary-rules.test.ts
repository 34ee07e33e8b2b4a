import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { describe, expect, it } from 'vitest';
import { checkDocument } from '../../check/check-document.js';

const fixtures = resolve(import.meta.dirname, '../../../../../test-fixtures/agent-context');
const RUN = 'add-retry-budget-to-webhook-sender';
const BASE = `valid-writer-repair-then-finalize/.agent-context`;
const TASK = `runs/${RUN}/state.json`;
const ORCH = `orchestrator/${RUN}/state.json`;
const DECISION = `runs/${RUN}/iterations/002/decision.json`;

type Doc = Record<string, unknown>;
const sub = (d: Doc, key: string): Doc => d[key] as Doc;
const read = (rel: string): Doc => JSON.parse(readFileSync(`${fixtures}/${BASE}/${rel}`, 'utf8')) as Doc;

/** `severity code pointer` of every finding on a document checked at `.agent-context/<rel>`. */
function findingsOf(rel: string, value: Doc): string[] {
  const path = `.agent-context/${rel}`;
  const t = tmpTree({ [path]: `${JSON.stringify(value, null, 2)}\n` });
  try {
    return (checkDocument(t.path(path), path)?.findings ?? []).map(
      (f) => `${f.severity} ${f.code} ${f.pointer}`,
    );
  } finally {
    t.cleanup();
  }
}

describe('descriptive values a newer release may add', () => {
  it('should warn, not fail, on an unknown task state, last action or allowed action', () => {
    const task = read(TASK);
    const newer = {
      ...task,
      state: 'AWAITING_REVIEW',
      lastAction: 'review_requested',
      allowedActions: ['review', 'request_review'],
    };
    expect(findingsOf(TASK, newer).sort()).toEqual([
      'warning agent-context/unknown-value /allowedActions/1',
      'warning agent-context/unknown-value /lastAction',
      'warning agent-context/unknown-value /state',
    ]);
  });

  it('should keep an unknown nextAction.type an error: it is what a resume runs', () => {
    const task = read(TASK);
    const next = { ...task, nextAction: { ...sub(task, 'nextAction'), type: 'request_review' } };
    expect(findingsOf(TASK, next)).toEqual(['error agent-context/unknown-action /nextAction/type']);
  });

  it('should warn on an unknown latestDecision action and not judge its convergence', () => {
    const orch = read(ORCH);
    const action = 'request-review';
    const newer = {
      ...orch,
      latestDecision: { ...sub(orch, 'latestDecision'), action },
      convergence: { ...sub(orch, 'convergence'), status: 'terminal' },
    };
    expect(findingsOf(ORCH, newer)).toEqual(['warning agent-context/unknown-value /latestDecision/action']);
  });

  it('should keep an unknown currentPhase a schema error: a resume starts there', () => {
    const orch = read(ORCH);
    expect(findingsOf(ORCH, { ...orch, currentPhase: 'review' })).toContain(
      'error schema/enum /currentPhase',
    );
  });

  it('should skip the convergence judgement when the raw decision action is unknown', () => {
    const decision = read(DECISION);
    const known = findingsOf(DECISION, {
      ...decision,
      convergence: { ...sub(decision, 'convergence'), status: 'progressing', shouldStop: false },
    });
    expect(known.some((f) => f.includes('convergence-mismatch'))).toBe(true);
    const conv = sub(decision, 'convergence');
    const fp = sub(conv, 'fingerprint');
    const state = { ...sub(fp, 'state'), decisionAction: 'request-review' };
    const unknown = findingsOf(DECISION, {
      ...decision,
      convergence: {
        ...conv,
        status: 'progressing',
        shouldStop: false,
        fingerprint: { ...fp, state },
      },
    });
    expect(unknown).toContain(
      'warning agent-context/unknown-value /convergence/fingerprint/state/decisionAction',
    );
    expect(unknown.some((f) => f.includes('convergence-mismatch'))).toBe(false);
  });
});
