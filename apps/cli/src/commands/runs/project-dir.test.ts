import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { findProjectRoot, holdsRuns, noRunsError, projectDir } from './project-dir.js';

const trees: { cleanup(): void }[] = [];
const tree = (files: Record<string, string>) => {
  const t = tmpTree(files, 'ckpt-project-dir-');
  trees.push(t);
  return t;
};
afterEach(() => {
  for (const t of trees.splice(0)) t.cleanup();
});

describe('holdsRuns', () => {
  it('should count .team/, .ulpi/, .agent-context/ and a reports/ folder holding a resumable run root', () => {
    for (const marker of ['.team/runs/current', '.ulpi/runs/a.json', '.agent-context/runs/t/state.json'])
      expect(holdsRuns(tree({ [marker]: '' }).dir)).toBe(true);
    expect(holdsRuns(tree({ '.opencode/reports/rel-20261128T101500Z/state.env': '' }).dir)).toBe(true);
    expect(holdsRuns(tree({ 'reports/rel-20261128T101500Z/checklist.state.env': '' }).dir)).toBe(true);
  });

  it('should not count a reports/ folder without a run root, nor an empty folder', () => {
    expect(holdsRuns(tree({ 'reports/coverage/index.html': '' }).dir)).toBe(false);
    expect(holdsRuns(tree({ 'src/a.ts': '' }).dir)).toBe(false);
  });
});

describe('findProjectRoot', () => {
  it('should find the nearest folder holding runs at or above the start, as git finds its repository', () => {
    const t = tree({ '.team/runs/r1/run.json': '{}', 'src/deep/er/a.ts': '', 'sub/.ulpi/runs/x.json': '{}' });
    expect(findProjectRoot(t.path('src/deep/er'))).toBe(t.dir);
    expect(findProjectRoot(t.path('.team/runs/r1'))).toBe(t.dir);
    expect(findProjectRoot(t.dir)).toBe(t.dir);
    // The nearest one wins: sub/ holds its own runs.
    expect(findProjectRoot(t.path('sub/.ulpi/runs'))).toBe(t.path('sub'));
  });

  it('should find nothing when no folder up to the root holds runs', () => {
    const t = tree({ 'a/b/c.txt': '' });
    expect(findProjectRoot(t.path('a/b'))).toBeUndefined();
  });
});

describe('projectDir', () => {
  it('should resolve a folder given relative to the current folder, and keep it as given', () => {
    const t = tree({ 'p/.team/runs/current': '' });
    expect(projectDir('p', t.dir)).toEqual({ dir: 'p', how: 'given' });
    expect(() => projectDir('nope', t.dir)).toThrow('cannot read "nope": no such file or directory');
  });

  it('should walk up when no folder is given, and fall back to the current folder', () => {
    const t = tree({ '.agent-context/runs/t/state.json': '{}', 'x/y/z.txt': '' });
    expect(projectDir(undefined, t.path('x/y'))).toEqual({ dir: t.dir, how: 'found' });
    const empty = tree({});
    mkdirSync(join(empty.dir, 'w'));
    expect(projectDir(undefined, join(empty.dir, 'w'))).toEqual({ dir: join(empty.dir, 'w'), how: 'cwd' });
  });
});

describe('noRunsError', () => {
  it('should name the absolute folder it looked in, and exit 3', () => {
    const e = noRunsError({ dir: 'p', how: 'given' }, 'team', '/home/u');
    expect(e.exitCode).toBe(3);
    expect(e.message).toMatch(/^no team runs in \/home\/u\/p \(searched it and its subfolders/);
    const up = noRunsError({ dir: '/home/u/w', how: 'cwd' }, undefined, '/home/u/w');
    expect(up.message).toMatch(/^no runs in \/home\/u\/w: no folder from there up to \/ holds/);
    expect(up.message).toContain('`ckpt status <dir>`');
  });
});
