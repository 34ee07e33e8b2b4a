import { fcParams } from '@ckpt/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyUlpiLaunch, ulpiResumeDescriptor, ulpiResumeSet, ulpiShellQuote } from './resume.js';

const u = (status: string, dependsOn: unknown = []) => ({ status, dependsOn });

describe('ulpiResumeSet', () => {
  it('should skip done, make units with done dependencies eligible, and point dep_blocked at the chain root', () => {
    const doc = {
      units: {
        a: u('done'),
        b: u('in_progress', ['a']),
        c: u('pending', ['b']),
        d: u('dep_blocked', ['c']),
        e: u('blocked', ['a']),
        f: u('dep_blocked', ['a']),
      },
    };
    const set = ulpiResumeSet(doc);
    expect(set).toEqual({ skip: ['a'], eligible: ['b', 'e', 'f'], dep_blocked: { c: 'b', d: 'b' } });
    expect(JSON.stringify(set)).toBe(
      '{"skip":["a"],"eligible":["b","e","f"],"dep_blocked":{"c":"b","d":"b"}}',
    );
  });

  it('should count an unknown dependency as not done and stop the root walk on a cycle', () => {
    const set = ulpiResumeSet({
      units: { x: u('pending', ['ghost']), p: u('pending', ['q']), q: u('pending', ['p']) },
    });
    expect(set.dep_blocked).toEqual({ x: 'ghost', p: 'q', q: 'p' });
    expect(set.eligible).toEqual([]);
  });

  it('should answer where the original crashes: a null unit and a string dependsOn', () => {
    const set = ulpiResumeSet({ units: { n: null, s: u('pending', 'n'), t: u('pending', 7) } });
    expect(set).toEqual({ skip: [], eligible: ['n', 't'], dep_blocked: { s: 'n' } });
  });

  it('should keep a __proto__ unit id as data', () => {
    const doc = JSON.parse(
      '{"units":{"__proto__":{"status":"pending","dependsOn":["a"]},"a":{"status":"pending","dependsOn":[]}}}',
    );
    const set = ulpiResumeSet(doc);
    expect(Object.keys(set.dep_blocked)).toEqual(['__proto__']);
    expect(set.eligible).toEqual(['a']);
  });

  it('should never throw and partition every unit exactly once for any input', () => {
    const status = fc.constantFrom('pending', 'in_progress', 'done', 'blocked', 'dep_blocked', 'weird');
    const ids = fc.constantFrom('a', 'b', 'c', 'd', '__proto__', 'constructor');
    const unit = fc.oneof(
      fc.constant(null),
      fc.record({ status, dependsOn: fc.oneof(fc.array(ids, { maxLength: 3 }), ids, fc.integer()) }),
    );
    fc.assert(
      fc.property(fc.dictionary(ids, unit, { maxKeys: 6 }), fc.anything(), (units, junk) => {
        ulpiResumeSet(junk);
        const set = ulpiResumeSet({ units });
        const all = [...set.skip, ...set.eligible, ...Object.keys(set.dep_blocked)].sort();
        expect(all).toEqual(Object.keys(units).sort());
      }),
      fcParams(200),
    );
  });
});

describe('classifyUlpiLaunch', () => {
  it('should classify absent, non-object and empty-script launches as no-launch', () => {
    for (const launch of [
      undefined,
      null,
      [],
      'pipeline.mjs',
      { scriptPath: '' },
      { scriptPath: '  ' },
      { args: {} },
    ])
      expect(classifyUlpiLaunch({ launch }).kind).toBe('no-launch');
  });

  it('should make the coordinator recipe runnable with a shell-safe command', () => {
    const l = classifyUlpiLaunch({
      launch: {
        scriptPath: 'autonomous-pipeline/scripts/pipeline.mjs',
        args: { command: 'resume', run: "it's mine" },
      },
    });
    expect(l.kind).toBe('codex-cli');
    if (l.kind !== 'codex-cli') return;
    expect(l.argv).toEqual(['pipeline.mjs', 'resume', '--run', "it's mine"]);
    expect(l.shell).toBe("node pipeline.mjs resume --run 'it'\\''s mine'");
  });

  it('should treat any other descriptor as legacy-workflow, never runnable', () => {
    for (const launch of [
      { scriptPath: '/repo/autonomous-pipeline/references/pipeline-workflow.js', args: { statusFile: 'x' } },
      { scriptPath: 'pipeline.mjs', args: { command: 'start', run: 'r' } },
      { scriptPath: 'pipeline.mjs', args: { command: 'resume', run: '' } },
      { scriptPath: 'pipeline.mjs', args: ['resume'] },
    ]) {
      expect(classifyUlpiLaunch({ launch }).kind).toBe('legacy-workflow');
      expect(ulpiResumeDescriptor({ launch }).runnable).toBe(false);
    }
  });
});

describe('ulpiShellQuote', () => {
  it('should leave bare tokens and quote the rest', () => {
    expect(ulpiShellQuote('run-2026-11-29-071300Z')).toBe('run-2026-11-29-071300Z');
    expect(ulpiShellQuote('a b;rm -rf')).toBe("'a b;rm -rf'");
  });
});
