import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialects } from '../dialects/registry.js';
import {
  compareRunsNewestFirst,
  discoverRoots,
  displayUnder,
  loadProject,
  matchRun,
} from './load-project.js';
import { createProjectIndex } from './project-index.js';
import { testRun } from './test/test-run.js';

const sample = resolve(import.meta.dirname, '../../../../test-fixtures/sample-project');

describe('matchRun', () => {
  const runs = [
    testRun('alpha-1'),
    testRun('alpha-2'),
    testRun('beta', { dialect: 'team' }),
    testRun('beta', { dialect: 'ulpi' }),
  ];

  it('should find an exact id, then a unique prefix', () => {
    expect(matchRun(runs, 'alpha-1')).toMatchObject({ kind: 'found', run: { id: 'alpha-1' } });
    expect(matchRun(runs, 'alpha-2')).toMatchObject({ kind: 'found' });
    expect(matchRun(runs, 'alpha')).toMatchObject({ kind: 'ambiguous' });
    expect(matchRun(runs, 'gamma')).toEqual({ kind: 'none' });
  });

  it('should tell runs of two dialects apart by <dialect>/<id> or by the dialect argument', () => {
    expect(matchRun(runs, 'beta').kind).toBe('ambiguous');
    expect(matchRun(runs, 'team/beta')).toMatchObject({ kind: 'found', run: { dialect: 'team' } });
    expect(matchRun(runs, 'beta', 'ulpi')).toMatchObject({ kind: 'found', run: { dialect: 'ulpi' } });
  });
});

describe('compareRunsNewestFirst', () => {
  it('should sort by updatedAt, then createdAt, newest first', () => {
    const a = testRun('a', { updatedAt: '2026-01-02T00:00:00Z' });
    const b = testRun('b', { updatedAt: '2026-01-03T00:00:00Z' });
    const c = testRun('c', { updatedAt: undefined, createdAt: '2026-01-01T00:00:00Z' });
    expect([a, c, b].sort(compareRunsNewestFirst).map((r) => r.id)).toEqual(['b', 'a', 'c']);
  });
});

describe('loadProject', () => {
  it('should load the sample project newest first, one or more runs per dialect that has a loader', () => {
    const runs = loadProject(sample);
    const withLoader = dialects.filter((d) => d.discover && d.loadRunViews).map((d) => d.id);
    for (const d of withLoader) expect(runs.some((r) => r.dialect === d)).toBe(true);
    expect([...runs].sort(compareRunsNewestFirst)).toEqual(runs);
    for (const r of runs) expect(r.root.startsWith('/')).toBe(false);
  });

  it('should keep to the dialects asked for', () => {
    const roots = discoverRoots(sample, { dialects: ['resumable'] });
    expect(roots.every((r) => r.dialect === 'resumable')).toBe(true);
    expect(loadProject(sample, { dialects: ['resumable'] }).every((r) => r.dialect === 'resumable')).toBe(
      true,
    );
  });
});

describe('displayUnder', () => {
  it('should show every path exactly as relative() does, with `/` separators', () => {
    const rests = [
      '',
      '/',
      'x',
      'x/y.json',
      'x//y',
      'x/./y',
      'x/../y',
      '..',
      '.',
      'x/',
      'a\\b',
      'x/..a',
      'x/...',
    ];
    for (const dir of ['/p', '/p/', '/', '/a/b'])
      for (const rest of rests)
        for (const abs of [dir + rest, `${dir}/${rest}`, `/q/${rest}`])
          expect(displayUnder(dir)(abs)).toBe(relative(dir, abs).replace(/\\/g, '/') || '.');
  });
});

describe('loadProject: parts of a team run made when read', () => {
  it("should make a unit's attempts and the run's sources on first read, as the project index makes them", () => {
    const runs = loadProject(sample, { showSecrets: true, dialects: ['team'] });
    const kept = createProjectIndex(sample, { showSecrets: true, dialects: ['team'] }).load().runs;
    expect(runs.length).toBeGreaterThan(0);
    for (const [i, run] of runs.entries()) {
      expect(Object.getOwnPropertyDescriptor(run, 'sources')?.get).toBeTypeOf('function');
      for (const u of run.units)
        expect(Object.getOwnPropertyDescriptor(u, 'attempts')?.get).toBeTypeOf('function');
      // Made once: the same array at every read.
      expect(run.sources).toBe(run.sources);
      expect(run.units[0]?.attempts).toBe(run.units[0]?.attempts);
      expect(JSON.stringify(run)).toBe(JSON.stringify(kept[i]));
      expect({ ...run.units[0] }).toEqual(kept[i]!.units[0]);
    }
  });
});
