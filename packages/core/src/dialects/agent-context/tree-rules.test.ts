import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { describe, expect, it } from 'vitest';
import { validatePaths } from '../../check/validate-files.js';

const fixtures = resolve(import.meta.dirname, '../../../../../test-fixtures/agent-context');
const RUN = 'add-retry-budget-to-webhook-sender';
const RERUN = `valid-writer-rerun-after-orchestrator-deleted/.agent-context/runs/${RUN}/iterations`;
const EARLIER = 'valid-writer-repair-then-finalize/.agent-context/runs';

type Doc = Record<string, unknown> & { convergence: Record<string, unknown> };
const read = (rel: string): Doc => JSON.parse(readFileSync(`${fixtures}/${rel}`, 'utf8')) as Doc;

/** Validates iteration folders `{ '001': { iteration, decision } }` of one run and lists `<nnn>/<file> <code>`. */
function findingsOf(iterations: Record<string, { iteration: Doc; decision: Doc }>): string[] {
  const files: Record<string, string> = {};
  for (const [nnn, docs] of Object.entries(iterations))
    for (const [name, doc] of Object.entries(docs))
      files[`.agent-context/runs/${RUN}/iterations/${nnn}/${name}.json`] =
        `${JSON.stringify(doc, null, 2)}\n`;
  const t = tmpTree(files);
  try {
    return validatePaths(['.'], { cwd: t.dir })
      .files.flatMap((f) =>
        f.findings.map((x) => `${f.file.split('/iterations/')[1]} ${x.code} ${x.severity}`),
      )
      .sort();
  } finally {
    t.cleanup();
  }
}

const rerun = (nnn: string) => ({
  iteration: read(`${RERUN}/${nnn}/iteration.json`),
  decision: read(`${RERUN}/${nnn}/decision.json`),
});
const earlier = (nnn: string) => ({
  iteration: read(`${EARLIER}/${RUN}/iterations/${nnn}/iteration.json`),
  decision: read(`${EARLIER}/${RUN}/iterations/${nnn}/decision.json`),
});

describe('fingerprint chain', () => {
  it('should note, not fail, a previousFingerprint on iteration 1 (a rerun after the orchestrator state was deleted)', () => {
    expect(findingsOf({ '001': rerun('001'), '002': rerun('002') })).toEqual([
      '001/decision.json agent-context/rerun-fingerprint info',
      '001/iteration.json agent-context/rerun-fingerprint info',
    ]);
  });

  it('should not judge the first iteration present when the one before it is missing', () => {
    expect(findingsOf({ '002': rerun('002') })).toEqual([]);
  });

  it('should still report a mismatch between iteration N and N-1 when both are present', () => {
    // The rerun stopped at iteration 1; iteration 2 is the earlier run's, chained to the earlier iteration 1.
    const stale = earlier('002');
    for (const doc of [stale.iteration, stale.decision])
      doc.convergence = { ...doc.convergence, previousFingerprint: 'ab'.repeat(32) };
    const mixed = findingsOf({ '001': rerun('001'), '002': stale });
    expect(mixed).toEqual([
      '001/decision.json agent-context/rerun-fingerprint info',
      '001/iteration.json agent-context/rerun-fingerprint info',
      '002/decision.json agent-context/broken-fingerprint-chain error',
      '002/iteration.json agent-context/broken-fingerprint-chain error',
    ]);
  });

  it('should name the iteration on disk whose fingerprint iteration 1 carries', () => {
    const first = rerun('001');
    const stale = earlier('002');
    const value = (stale.iteration.convergence.fingerprint as { value: string }).value;
    for (const doc of [first.iteration, first.decision])
      doc.convergence = { ...doc.convergence, previousFingerprint: value };
    const files: Record<string, string> = {};
    for (const [nnn, docs] of Object.entries({ '001': first, '002': stale }))
      for (const [name, doc] of Object.entries(docs))
        files[`.agent-context/runs/${RUN}/iterations/${nnn}/${name}.json`] = JSON.stringify(doc, null, 2);
    const t = tmpTree(files);
    try {
      const notes = validatePaths(['.'], { cwd: t.dir })
        .files.flatMap((f) => f.findings)
        .filter((f) => f.code === 'agent-context/rerun-fingerprint');
      expect(notes).toHaveLength(2);
      expect(notes[0]?.message).toContain('iteration 2 on disk, left from an earlier run');
    } finally {
      t.cleanup();
    }
  });
});
