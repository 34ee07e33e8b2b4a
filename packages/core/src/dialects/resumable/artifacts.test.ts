import { describe, expect, it } from 'vitest';
import { artifactPath, declaredArtifacts, missingArtifacts, stageArtifacts } from './artifacts.js';

const state = {
  RUN_ROOT: '/home/dev/repo/.opencode/reports/t-20261129T100000Z',
  ARTIFACT_ROOT: '/home/dev/repo/.opencode/reports/t-20261129T100000Z/artifacts',
  S1_DONE: '1',
  S2_DONE: '1',
};

describe('artifactPath', () => {
  it('should read names relative to artifacts/, under $ARTIFACT_ROOT, ARTIFACT_ROOT or RUN_ROOT', () => {
    expect(artifactPath('diff.patch', state)).toBe('diff.patch');
    expect(artifactPath('artifacts/diff.patch', state)).toBe('diff.patch');
    expect(artifactPath('$ARTIFACT_ROOT/s2/diff.patch', state)).toBe('s2/diff.patch');
    expect(artifactPath(`\${RUN_ROOT}/artifacts/s2.log`, state)).toBe('s2.log');
    expect(artifactPath(`${state.ARTIFACT_ROOT}/diff.patch`, state)).toBe('diff.patch');
    expect(artifactPath(`${state.RUN_ROOT}/artifacts/diff.patch`, state)).toBe('diff.patch');
  });

  it('should leave out paths outside the run (they cannot be checked here)', () => {
    expect(artifactPath('/tmp/diff.patch', state)).toBeUndefined();
    expect(artifactPath('$HOME/diff.patch', state)).toBeUndefined();
    expect(artifactPath('../state.env', state)).toBeUndefined();
  });
});

describe('missingArtifacts', () => {
  it('should read a flag, a status word or a note as no declaration, and lists split by spaces too', () => {
    const s = { ...state, S1_ARTIFACT_STATUS: 'captured', S2_ARTIFACTS: 'diff.patch tests.txt' };
    expect(missingArtifacts('S1', s, { S1_ARTIFACT_CAPTURED: 'yes' }, [], false)).toEqual({
      missing: [],
      rule: 'none',
    });
    expect(missingArtifacts('S2', s, {}, ['diff.patch'], false)).toEqual({
      missing: ['tests.txt'],
      rule: 'declared',
    });
  });

  it('should require nothing of a run that declares nothing', () => {
    expect(missingArtifacts('S1', state, {}, [], false)).toEqual({ missing: [], rule: 'none' });
  });

  it("should keep ckpt's S<n>-* convention for runs ckpt made", () => {
    expect(missingArtifacts('S1', state, {}, [], true)).toEqual({ missing: ['S1-*'], rule: 'ckpt-prefix' });
    expect(missingArtifacts('S1', state, {}, ['S1-tests.txt'], true).missing).toEqual([]);
  });

  it('should require declared artifacts from state.env and the checklist, lists and globs included', () => {
    const s = {
      ...state,
      S2_ARTIFACTS: 'diff.patch, report-*.txt',
      S2_LOG_ARTIFACT: '$ARTIFACT_ROOT/s2.log',
    };
    expect(declaredArtifacts('S2', s, { S2_BUILD_ARTIFACT: 'dist/' })).toEqual([
      'diff.patch',
      'report-*.txt',
      's2.log',
      'dist',
    ]);
    expect(missingArtifacts('S2', s, {}, ['diff.patch', 'report-1.txt'], false)).toEqual({
      missing: ['s2.log'],
      rule: 'declared',
    });
    expect(missingArtifacts('S2', s, {}, ['diff.patch', 'report-1.txt', 's2.log'], true).missing).toEqual([]);
  });

  it('should read a numeric value as a flag, not a file name, and an empty list as none', () => {
    expect(declaredArtifacts('S3', { S3_ARTIFACT_CAPTURED: '1', S3_ARTIFACTS: '' }, {})).toEqual([]);
    expect(missingArtifacts('S3', { S3_ARTIFACTS: '' }, {}, [], true)).toEqual({
      missing: [],
      rule: 'declared',
    });
  });
});

describe('stageArtifacts', () => {
  it('should show the files a stage declares and those named after it', () => {
    expect(
      stageArtifacts('S2', { S2_DIFF_ARTIFACT: 'diff.patch' }, {}, ['S2-log.txt', 'diff.patch', 'other.txt']),
    ).toEqual(['S2-log.txt', 'diff.patch']);
  });
});
