import { describe, expect, it } from 'vitest';
import type { Finding } from '../findings/finding.js';
import { testRun } from '../view/test/test-run.js';
import { attentionOf, needsPerson } from './attention.js';
import { currentTime } from './clock.js';
import { ATTENTION_REASONS } from './reasons.js';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const quiet = {
  summary: 's',
  skip: [],
  runNext: [{ id: 'b', reason: 'next' }],
  blocked: [],
  needsPerson: [],
  notes: [],
};
const finding = (code: string, severity: Finding['severity'] = 'error'): Finding => ({
  code,
  severity,
  message: `${code} here`,
  file: '.ulpi/runs/r.json',
  pointer: '',
  line: 1,
  column: 1,
});

describe('attentionOf', () => {
  it('should be none for an active run updated recently with a clean plan', () => {
    expect(attentionOf(testRun('r', { resume: quiet }), NOW)).toEqual({ level: 'none', reasons: [] });
  });

  it('should flag a run that is active but not updated for longer than its dialect allows', () => {
    const run = testRun('r', { resume: quiet, updatedAt: '2026-11-27T11:00:00Z' });
    const a = attentionOf(run, NOW);
    expect(a.level).toBe('action');
    expect(a.reasons.map((r) => r.code)).toEqual(['run/stale']);
    expect(a.reasons[0]!.message).toContain('1d 1h');
    expect(a.reasons[0]!.command).toBe('ckpt resume --run ulpi/r');
    expect(attentionOf(run, Date.parse('2026-11-28T10:00:00Z')).level).toBe('none');
  });

  it('should ask for a person when the resume plan lists items that need one', () => {
    const run = testRun('r', { resume: { ...quiet, needsPerson: [{ id: 'S2', reason: 'decide' }] } });
    const a = attentionOf(run, NOW);
    expect(needsPerson(a)).toBe(true);
    expect(a.reasons[0]).toMatchObject({
      code: 'resume/needs-person',
      message: '1 item need a person (S2: decide)',
    });
  });

  it('should be blocked when blocked units leave nothing to run next, info otherwise', () => {
    const blocked = [{ id: 'c', reason: 'waits for b' }];
    expect(attentionOf(testRun('r', { resume: { ...quiet, blocked } }), NOW).level).toBe('info');
    expect(attentionOf(testRun('r', { resume: { ...quiet, blocked, runNext: [] } }), NOW).level).toBe(
      'blocked',
    );
  });

  it('should block on an unsupported version and name the lock takeover for a dead holder', () => {
    const run = testRun('r', {
      resume: quiet,
      findings: [
        finding('agent-context/unsupported-schema-version'),
        finding('resumable/lock-stale', 'warning'),
      ],
      root: 'reports/x',
    });
    const a = attentionOf(run, NOW);
    expect(a.level).toBe('blocked');
    expect(a.reasons.map((r) => r.code)).toEqual(['version/unsupported', 'lock/dead-holder']);
    expect(a.reasons[1]!.command).toBe('ckpt resumable lock --run reports/x --steal');
  });

  it('should count unreadable files apart from other errors, and warnings as info', () => {
    const run = testRun('r', {
      resume: quiet,
      findings: [
        finding('parse/invalid-json'),
        finding('ulpi/unknown-dependency'),
        finding('x/y', 'warning'),
      ],
    });
    expect(attentionOf(run, NOW).reasons.map((r) => `${r.level} ${r.code}`)).toEqual([
      'action files/unreadable',
      'action findings/errors',
      'info findings/warnings',
    ]);
  });

  it('should take every hint from the table', () => {
    const run = testRun('r', { status: 'failed', tone: 'error', findings: [finding('x/y')] });
    for (const r of attentionOf(run, NOW).reasons) expect(r.hint).toBe(ATTENTION_REASONS[r.code].hint);
  });
});

describe('currentTime', () => {
  it('should honour CKPT_NOW as an ISO time or epoch milliseconds', () => {
    expect(currentTime({ CKPT_NOW: '2026-11-29T09:00:00Z' })).toBe(Date.parse('2026-11-29T09:00:00Z'));
    expect(currentTime({ CKPT_NOW: '1000' })).toBe(1000);
    expect(() => currentTime({ CKPT_NOW: 'yesterday' })).toThrow(/CKPT_NOW/);
  });
});

describe('attentionOf on units', () => {
  it('should ask for a person when a unit is marked blocked', () => {
    const run = testRun('r', { resume: quiet });
    const blocked = { ...run.units[2]!, status: 'blocked', note: 'needs a key' };
    const a = attentionOf({ ...run, units: [run.units[0]!, blocked] }, NOW);
    expect(a.reasons).toMatchObject([
      { code: 'units/blocked', level: 'action', message: '1 unit marked blocked (c: needs a key)' },
    ]);
  });
});
