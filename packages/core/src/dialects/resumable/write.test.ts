import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { describe, expect, it } from 'vitest';
import { valuesOf } from './load.js';
import {
  driveToPushConfirmed,
  fakeProbe,
  freshRun,
  loadFresh,
  refusal,
  testInit,
  testWriter,
} from './test-helpers.js';
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

describe('initResumableRun', () => {
  it('should create a run root the loader reads without findings, with the contract recorded once', () => {
    const { t, root } = freshRun();
    const { run, findings } = loadFresh(root, probe);
    expect(findings).toEqual([]);
    expect(valuesOf(run.contract)?.CONTRACT_BASE_PIN).toBe('a'.repeat(40));
    expect(valuesOf(run.state)?.CURRENT_STAGE).toBe('S1');
    expect(refusal(() => initResumableRun(testInit(t.dir), me))).toBe(2);
    t.cleanup();
  });
});

describe('markResumableStageDone', () => {
  it('should refuse with exit 2 while a required checklist key is not 1, and leave state.env untouched', () => {
    const { t, root } = freshRun();
    const before = readFileSync(join(root, 'state.env'), 'utf8');
    setResumableCheck(root, 'S1', 'A', '1', me);
    expect(refusal(() => markResumableStageDone(root, 'S1', me))).toBe(2);
    expect(readFileSync(join(root, 'state.env'), 'utf8')).toBe(before);
    setResumableCheck(root, 'S1', 'B', '1', me);
    markResumableStageDone(root, 'S1', me);
    expect(valuesOf(loadFresh(root, probe).run.state)?.CURRENT_STAGE).toBe('S2');
    t.cleanup();
  });

  it('should gate a run ckpt did not make only on the artifacts it declares', () => {
    const t = tmpTree();
    const root = initResumableRun(testInit(t.dir), me);
    rmSync(join(root, 'artifacts'), { recursive: true });
    for (const [st, item] of [
      ['S1', 'A'],
      ['S1', 'B'],
      ['S2', 'C'],
    ] as const)
      setResumableCheck(root, st, item, '1', me);
    markResumableStageDone(root, 'S1', me);
    const state = join(root, 'state.env');
    writeFileSync(
      state,
      readFileSync(state, 'utf8').replace(
        'S2_DONE="0"',
        'S2_DIFF_ARTIFACT="$ARTIFACT_ROOT/diff.patch"\nS2_DONE="0"',
      ),
    );
    expect(() => markResumableStageDone(root, 'S2', me)).toThrow(/missing artifacts\/diff\.patch/);
    mkdirSync(join(root, 'artifacts'));
    writeFileSync(join(root, 'artifacts', 'diff.patch'), 'diff\n');
    expect(markResumableStageDone(root, 'S2', me)).toBe('changed');
    expect(loadFresh(root, probe).findings).toEqual([]);
    t.cleanup();
  });

  it('should refuse a stage whose artifacts are missing, and one after an open stage', () => {
    const t = tmpTree();
    const root = initResumableRun(testInit(t.dir), me);
    setResumableCheck(root, 'S1', 'A', '1', me);
    setResumableCheck(root, 'S1', 'B', '1', me);
    setResumableCheck(root, 'S2', 'C', '1', me);
    expect(() => markResumableStageDone(root, 'S1', me)).toThrow(/missing artifacts/);
    expect(() => markResumableStageDone(root, 'S2', me)).toThrow(/S1 not done/);
    t.cleanup();
  });

  it('should refuse on contract drift against artifacts/contract.env', () => {
    const { t, root } = freshRun();
    const p = join(root, 'state.env');
    writeFileSync(p, readFileSync(p, 'utf8').replace('CONTRACT_BRANCH="main"', 'CONTRACT_BRANCH="other"'));
    setResumableCheck(root, 'S1', 'A', '1', me);
    setResumableCheck(root, 'S1', 'B', '1', me);
    expect(() => markResumableStageDone(root, 'S1', me)).toThrow(/contract drift/);
    expect(loadFresh(root, probe).findings.map((f) => f.code)).toContain('resumable/contract-drift');
    t.cleanup();
  });
});

describe('setResumableCheck', () => {
  it('should refuse to clear a check of a done stage', () => {
    const { t, root } = freshRun();
    driveToPushConfirmed(root);
    expect(refusal(() => setResumableCheck(root, 'S2', 'C', '0', me))).toBe(2);
    t.cleanup();
  });
});

describe('finalizeResumableRun', () => {
  it('should refuse before the push is confirmed', () => {
    const { t, root } = freshRun();
    expect(refusal(() => finalizeResumableRun(root, me))).toBe(2);
    t.cleanup();
  });

  it('should append one summary block and set the flags once; a second finalize changes nothing', () => {
    const { t, root } = freshRun();
    driveToPushConfirmed(root);
    expect(finalizeResumableRun(root, me)).toBe('finalized');
    const state = readFileSync(join(root, 'state.env'), 'utf8');
    const log = readFileSync(join(root, 'run.log'), 'utf8');
    expect(finalizeResumableRun(root, me)).toBe('unchanged');
    expect(readFileSync(join(root, 'state.env'), 'utf8')).toBe(state);
    expect(readFileSync(join(root, 'run.log'), 'utf8')).toBe(log);
    const { findings } = loadFresh(root, probe);
    expect(findings).toEqual([]);
    t.cleanup();
  });
});

describe('writers and the lock', () => {
  it('should refuse every writer while another live process holds the lock', () => {
    const { t, root } = freshRun();
    acquireResumableLock(root, { ...me, pid: 7, probe: fakeProbe([7, 4242]) });
    const other = { ...me, probe: fakeProbe([7, 4242]) };
    expect(refusal(() => setResumableCheck(root, 'S1', 'A', '1', other))).toBe(2);
    expect(refusal(() => appendResumableLog(root, 'hi', other))).toBe(2);
    expect(refusal(() => acquireResumableLock(root, other))).toBe(2);
    expect(refusal(() => releaseResumableLock(root, other))).toBe(2);
    t.cleanup();
  });

  it('should log a stale lock to run.log before replacing it', () => {
    const { t, root } = freshRun();
    acquireResumableLock(root, { ...me, pid: 7 });
    expect(loadFresh(root, probe).findings.map((f) => f.code)).toEqual(['resumable/lock-stale']);
    expect(acquireResumableLock(root, me)).toBe('replaced-stale');
    const log = readFileSync(join(root, 'run.log'), 'utf8');
    expect(log).toMatch(/stale lock replaced \(stale\): .*pid="7"/);
    expect(readFileSync(join(root, 'run.lock'), 'utf8')).toContain('pid="4242"');
    expect(releaseResumableLock(root, me)).toBe('released');
    expect(existsSync(join(root, 'run.lock'))).toBe(false);
    t.cleanup();
  });

  it('should refuse a lock held on another host unless stolen', () => {
    const { t, root } = freshRun();
    acquireResumableLock(root, { ...me, probe: fakeProbe([4242], 'elsewhere') });
    expect(refusal(() => acquireResumableLock(root, me))).toBe(2);
    expect(acquireResumableLock(root, { ...me, steal: true })).toBe('replaced-stale');
    t.cleanup();
  });
});
