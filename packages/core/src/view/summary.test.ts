import { describe, expect, it } from 'vitest';
import type { Finding } from '../findings/finding.js';
import { resumeDocument, runsDocument, summariesDocument } from './documents.js';
import { RUN_VIEW_FORMAT_VERSION } from './run-view.js';
import { describeProblems, problemCounts, summarizeRun } from './summary.js';
import { testRun } from './test/test-run.js';

const finding = (severity: Finding['severity']): Finding => ({
  code: 'x/y',
  severity,
  message: 'm',
  file: 'f',
  pointer: '',
  line: 1,
  column: 1,
});

describe('problemCounts', () => {
  it('should count findings per severity', () => {
    const p = problemCounts([finding('error'), finding('warning'), finding('error'), finding('info')]);
    expect(p).toEqual({ errors: 2, warnings: 1, infos: 1 });
    expect(describeProblems(p)).toBe('2 errors, 1 warning, 1 info');
    expect(describeProblems(problemCounts([]))).toBe('');
  });
});

describe('summarizeRun', () => {
  it('should keep the one-line facts and drop units', () => {
    const s = summarizeRun(testRun('r1', { findings: [finding('warning')] }));
    expect(s).toMatchObject({
      id: 'r1',
      status: 'running',
      progress: { done: 1, total: 3 },
      resume: 'run b next',
    });
    expect(s.problems.warnings).toBe(1);
    expect('units' in s).toBe(false);
  });
});

describe('documents', () => {
  it('should carry the format version', () => {
    const runs = [testRun('r1')];
    expect(runsDocument(runs).formatVersion).toBe(RUN_VIEW_FORMAT_VERSION);
    expect(summariesDocument(runs).runs[0]!.id).toBe('r1');
    expect(resumeDocument(runs[0]!)).toMatchObject({ run: { id: 'r1' }, attention: { level: 'none' } });
  });
});
