import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validatePaths } from '../../check/validate-files.js';
import { resumableCodes } from './codes.js';
import { fakeProbe, freshRun, loadFresh } from './test-helpers.js';
import { acquireResumableLock } from './write-lock.js';

const fixtures = resolve(import.meta.dirname, '../../../../../test-fixtures');
const me = { probe: fakeProbe([1]), pid: 1, user: 'u' };

const run = () => freshRun(me, ['S1']);

function edit(path: string, from: string, to: string) {
  const s = readFileSync(path, 'utf8');
  expect(s).toContain(from);
  writeFileSync(path, s.replace(from, to));
}

describe('resumableCodes', () => {
  it('should document every code with a severity, a title and an explanation', () => {
    for (const [code, info] of Object.entries(resumableCodes)) {
      expect(code).toMatch(/^resumable\/[a-z-]+$/);
      expect(info.title.length).toBeGreaterThan(10);
      expect(info.explanation.length).toBeGreaterThan(20);
    }
  });

  it('should hold every code the rules report over the fixture corpus and the sample project', () => {
    const seen = validatePaths(['resumable', 'sample-project'], { cwd: fixtures, strict: true })
      .files.flatMap((f) => f.findings)
      .map((f) => f.code)
      .filter((c) => c.startsWith('resumable/'));
    expect(seen.length).toBeGreaterThan(10);
    for (const c of seen) expect(Object.keys(resumableCodes)).toContain(c);
  });
});

describe('checkRunRoot', () => {
  it('should warn, not stop, on a done stage whose checklist records nothing for it', () => {
    const { t, root } = run();
    edit(join(root, 'state.env'), 'S2_DONE="0"', 'S2_DONE="1"');
    edit(join(root, 'state.env'), 'S1_DONE="0"', 'S1_DONE="1"');
    edit(join(root, 'checklist.state.env'), 'CB_S2_C="0"\n', '');
    const s2 = () =>
      loadFresh(root, me.probe)
        .findings.filter((f) => f.message.startsWith('S2_DONE=1'))
        .map((f) => `${f.severity} ${f.code} ${f.message}`);
    expect(s2()).toEqual([
      'warning resumable/stage-done-unchecked S2_DONE=1 but the checklist has no CB_S2_* keys (and no S2_CHECKLIST_DONE=1)',
    ]);
    edit(join(root, 'state.env'), 'S2_DONE="1"', 'S2_CHECKLIST_DONE="1"\nS2_DONE="1"');
    expect(s2()).toEqual([]);
    edit(
      join(root, 'checklist.state.env'),
      'CHECKLIST_SCHEMA_VERSION',
      'REQUIRED_S2="C"\nCHECKLIST_SCHEMA_VERSION',
    );
    expect(s2()).toEqual(['error resumable/stage-done-checklist-incomplete S2_DONE=1 but CB_S2_C=(missing)']);
    t.cleanup();
  });

  it('should tell an active lock (stop) from a stale one (holder reported)', () => {
    const { t, root } = run();
    acquireResumableLock(root, { ...me, pid: 77 });
    const active = loadFresh(root, fakeProbe([77])).findings;
    expect(active.map((f) => [f.code, f.severity])).toEqual([['resumable/lock-active', 'error']]);
    const stale = loadFresh(root, fakeProbe([])).findings;
    expect(stale.map((f) => [f.code, f.severity])).toEqual([['resumable/lock-stale', 'warning']]);
    expect(stale[0]!.message).toContain('pid=77');
    expect(loadFresh(root, fakeProbe([], 'other-host')).findings).toEqual([]);
    t.cleanup();
  });

  it('should report finalization flags set before the push is confirmed', () => {
    const { t, root } = run();
    edit(join(root, 'state.env'), 'RUN_SUMMARY_UPDATED="0"', 'RUN_SUMMARY_UPDATED="1"');
    expect(loadFresh(root, me.probe).findings.map((f) => f.code)).toEqual([
      'resumable/finalized-before-push',
    ]);
    t.cleanup();
  });

  it('should warn (not stop) when a contract item is set under no spelling', () => {
    const { t, root } = run();
    edit(join(root, 'state.env'), `CONTRACT_BASE_PIN="${'a'.repeat(40)}"\n`, '');
    rmSync(join(root, 'artifacts/contract.env'));
    const f = loadFresh(root, me.probe).findings;
    expect(f.map((x) => [x.code, x.severity])).toEqual([['resumable/contract-missing', 'warning']]);
    expect(f[0]!.message).toContain('BASE_PIN_SHA');
    t.cleanup();
  });

  it('should report drift between the record and a plain spelling added later', () => {
    const { t, root } = run();
    edit(join(root, 'state.env'), 'CURRENT_STAGE="S1"', 'BRANCH="dev"\nCURRENT_STAGE="S1"');
    const f = loadFresh(root, me.probe).findings;
    expect(f.map((x) => [x.code, x.pointer])).toEqual([['resumable/contract-drift', '/BRANCH']]);
    t.cleanup();
  });

  it('should report a done stage whose own <STAGE>_CHECKLIST_DONE flag is 0', () => {
    const { t, root } = run();
    edit(join(root, 'checklist.state.env'), 'CB_S1_A="0"', 'CB_S1_A="1"');
    edit(join(root, 'checklist.state.env'), 'CB_S1_B="0"', 'CB_S1_B="1"');
    edit(join(root, 'state.env'), 'S1_DONE="0"', 'S1_CHECKLIST_DONE="0"\nS1_DONE="1"');
    expect(loadFresh(root, me.probe).findings.map((x) => x.message)).toEqual([
      'S1_DONE=1 but S1_CHECKLIST_DONE=0',
    ]);
    t.cleanup();
  });

  it('should report an unparsable state as a parse finding and nothing derived from it', () => {
    const { t, root } = run();
    edit(join(root, 'state.env'), 'S1_DONE="0"', 'S1_DONE="1');
    const f = loadFresh(root, me.probe).findings;
    expect(f.map((x) => [x.code, x.line, x.column])).toEqual([['parse/invalid-env-line', 17, 9]]);
    t.cleanup();
  });
});
