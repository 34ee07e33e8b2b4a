import { describe, expect, it } from 'vitest';
import { resumeDecision, resumeWindow } from './resume.js';

const base = {
  S1_DONE: '0',
  S2_DONE: '0',
  S3_DONE: '0',
  CANONICAL_STATE_UPDATED: '0',
  REPORT_APPENDED: '0',
  RUN_SUMMARY_UPDATED: '0',
  CONTRACT_EXPECTED_OLD_SHA: 'b'.repeat(40),
  CONTRACT_BRANCH: 'main',
};
const checks = {
  CB_S1_CLEAN: '0',
  CB_S2_COMMIT: '0',
  CB_S3_PUSH_ATTEMPTED: '0',
  CB_S3_REMOTE_CONFIRMED: '0',
};

describe('resumeWindow', () => {
  it('should be before mutation while only the first stage has progress', () => {
    expect(resumeWindow(base, checks)).toBe('before-mutation');
    expect(resumeWindow({ ...base, S1_DONE: '1' }, { ...checks, CB_S1_CLEAN: '1' })).toBe('before-mutation');
  });

  it('should be after mutation once a later stage has a check or a done flag', () => {
    expect(resumeWindow({ ...base, S1_DONE: '1' }, { ...checks, CB_S1_CLEAN: '1', CB_S2_COMMIT: '1' })).toBe(
      'after-mutation-before-verification',
    );
  });

  it('should tell push attempted from push confirmed and from complete', () => {
    const done = { ...base, S1_DONE: '1', S2_DONE: '1' };
    const c = { ...checks, CB_S1_CLEAN: '1', CB_S2_COMMIT: '1', CB_S3_PUSH_ATTEMPTED: '1' };
    expect(resumeWindow(done, c)).toBe('push-attempted-outcome-unknown');
    const confirmed = { ...c, CB_S3_REMOTE_CONFIRMED: '1' };
    expect(resumeWindow(done, confirmed)).toBe('push-confirmed-finalization-incomplete');
    const final = {
      ...done,
      S3_DONE: '1',
      CANONICAL_STATE_UPDATED: '1',
      REPORT_APPENDED: '1',
      RUN_SUMMARY_UPDATED: '1',
    };
    expect(resumeWindow(final, confirmed)).toBe('complete');
  });
});

describe('resumeWindow with explicit push flags', () => {
  const done = { ...base, S1_DONE: '1', S2_DONE: '1' };
  const c = { ...checks, CB_S1_CLEAN: '1', CB_S2_COMMIT: '1' };

  it('should read PUSH_ATTEMPTED and PUSH_CONFIRMED beside the checklist push items', () => {
    expect(resumeWindow({ ...done, PUSH_ATTEMPTED: '1' }, c)).toBe('push-attempted-outcome-unknown');
    expect(resumeWindow({ ...done, PUSH_ATTEMPTED: '1', PUSH_CONFIRMED: '1' }, c)).toBe(
      'push-confirmed-finalization-incomplete',
    );
    expect(resumeWindow(done, { ...c, PUSH_CONFIRMED: '1' })).toBe('push-confirmed-finalization-incomplete');
  });

  it('should count PUSH_CONFIRMED=0 as not confirmed even once every stage is done', () => {
    const all = { S1_DONE: '1', S2_DONE: '1', PUSH_CONFIRMED: '0' };
    const cl = { CB_S1_A: '1', CB_S2_B: '1' };
    expect(resumeWindow(all, cl)).toBe('after-mutation-before-verification');
    expect(resumeWindow({ S1_DONE: '1', S2_DONE: '1' }, cl)).toBe('push-confirmed-finalization-incomplete');
  });
});

describe('resumeDecision', () => {
  it('should observe with the contract under any spelling, UNKNOWN meaning before the first push', () => {
    const r = resumeDecision(
      {
        S1_DONE: '1',
        S2_DONE: '0',
        TARGET_BRANCH: 'release/2.5',
        EXPECTED_OLD_REMOTE_SHA: 'UNKNOWN',
        REPO_ROOT: '/srv/r',
        PUSH_ATTEMPTED: '1',
      },
      { CB_S1_A: '1', CB_S2_B: '0' },
      [],
      { state: 'none' },
    );
    expect(r.window).toBe('push-attempted-outcome-unknown');
    expect(r.observe[0]).toMatchObject({
      command: 'git -C /srv/r ls-remote origin refs/heads/release/2.5',
      expect: expect.stringContaining('EXPECTED_OLD_REMOTE_SHA=UNKNOWN'),
    });
  });

  it('should ask for the declared artifacts of done stages, and no file names where none are declared', () => {
    const s = { ...base, S1_DONE: '1', S2_DONE: '1', S2_ARTIFACTS: 'diff.patch' };
    const c = { ...checks, CB_S1_CLEAN: '1', CB_S2_COMMIT: '1' };
    const art = (st: Record<string, string>, rec?: Record<string, string>) =>
      resumeDecision(st, c, [], { state: 'none' }, rec).observe.find((o) => o.what === 'artifacts')?.expect;
    expect(art(s)).toBe('artifacts/diff.patch present');
    expect(art(s, { CONTRACT_BRANCH: 'main' })).toBe('artifacts/S1-*, artifacts/diff.patch present');
    expect(art({ ...base, S1_DONE: '1', S2_DONE: '1' })).toContain('the run declares no artifacts');
  });

  it('should take the contract from the record when state.env has none', () => {
    const r = resumeDecision(base, checks, [], { state: 'none' }, { CONTRACT_BASE_PIN: 'c'.repeat(40) });
    expect(r.observe.find((o) => o.what === 'HEAD')?.expect).toContain('c'.repeat(40));
  });

  it('should pick the earliest stage whose flag is not 1 or whose checklist is incomplete', () => {
    const r = resumeDecision({ ...base, S1_DONE: '1' }, { ...checks, CB_S1_CLEAN: '0' }, [], {
      state: 'none',
    });
    expect(r.stage).toBe('S1');
    expect(r.doneStages).toEqual([]);
  });

  it('should ask for the remote SHA when the push outcome is unknown', () => {
    const r = resumeDecision(
      { ...base, S1_DONE: '1', S2_DONE: '1' },
      { ...checks, CB_S1_CLEAN: '1', CB_S2_COMMIT: '1', CB_S3_PUSH_ATTEMPTED: '1' },
      [],
      { state: 'none' },
    );
    expect(r.stage).toBe('S3');
    expect(r.observe[0]).toMatchObject({
      what: 'remote-sha',
      command: expect.stringContaining('refs/heads/main'),
    });
  });

  it('should list stop findings and be unknown without state', () => {
    const stop = {
      code: 'resumable/missing-state',
      severity: 'error' as const,
      message: 'x',
      file: 'f',
      pointer: '',
      line: 1,
      column: 1,
    };
    const r = resumeDecision(undefined, checks, [stop], { state: 'none' });
    expect(r.window).toBe('unknown');
    expect(r.stops).toEqual(['resumable/missing-state: x']);
  });
});
