import { spawnSync } from 'node:child_process';
import { tmpTree } from '@ckpt/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { reconcileUlpiFromGit, ulpiTrailers } from './reconcile.js';
import { readUlpiDoc } from './store.js';
import { initUlpiRun, setUlpiUnit } from './write.js';

let trees: { cleanup(): void }[] = [];
afterEach(() => {
  for (const t of trees) t.cleanup();
  trees = [];
});

function repo() {
  const t = tmpTree();
  trees.push(t);
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, {
      cwd: t.dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@x',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@x',
      },
    });
    if (r.status !== 0) throw new Error(r.stderr);
    return r.stdout.trim();
  };
  git('init', '-q', '-b', 'main');
  const commit = (msg: string) => {
    git('commit', '-q', '--allow-empty', '-m', msg);
    return git('rev-parse', 'HEAD');
  };
  return { t, git, commit };
}

describe('reconcileUlpiFromGit', () => {
  it('should mark reachable units done, flag a done unit without a trailer, and ignore task branches', () => {
    const { t, git, commit } = repo();
    commit('base');
    const oldA = commit('integrate a (first)\n\nTask-Id: a');
    const newA = commit('integrate a again\n\nRun-Id: r\nTask-Id: a');
    commit('mentions Task-Id: b in the body only\n\nnot a trailer paragraph here');
    git('checkout', '-q', '-b', 'task/c');
    commit('work on c\n\nTask-Id: c');
    git('checkout', '-q', 'main');
    expect(ulpiTrailers(t.dir, 'main')).toEqual(new Map([['a', newA]]));
    expect(oldA).not.toBe(newA);

    const f = t.path('.ulpi/runs/r.json');
    initUlpiRun(f, { task: 'x', units: ['a', 'b', 'c', 'd'] });
    setUlpiUnit(f, 'd', 'done');
    const r = reconcileUlpiFromGit(f, { repoDir: t.dir, ref: 'main' });
    expect(r).toEqual({ ref: 'main', integrated: ['a'], reconciled: ['a'], staleDone: ['d'] });
    const doc = readUlpiDoc(f);
    const units = doc.units as Record<string, { status: string; note: string }>;
    expect(units.a).toMatchObject({ status: 'done', note: `reconciled-from-trailer:${newA}` });
    expect(units.c!.status).toBe('pending');
    expect(units.d!.status).toBe('done');
    expect(doc.openItems).toEqual([
      expect.objectContaining({ id: 'stale-done:d', kind: 'stale-done', severity: 'blocker' }),
    ]);
    // Idempotent: a second reconcile changes nothing more.
    const text = JSON.stringify(readUlpiDoc(f));
    reconcileUlpiFromGit(f, { repoDir: t.dir, ref: 'main' });
    const again = readUlpiDoc(f);
    expect((again.openItems as unknown[]).length).toBe(1);
    expect(JSON.stringify({ ...again, updatedAt: 0 })).toBe(
      JSON.stringify({ ...JSON.parse(text), updatedAt: 0 }),
    );
  });

  it('should refuse a ref that does not resolve instead of flagging every done unit', () => {
    const { t, commit } = repo();
    commit('base');
    const f = t.path('r.json');
    initUlpiRun(f, { task: 'x', units: ['a'] });
    expect(() => reconcileUlpiFromGit(f, { repoDir: t.dir, ref: 'refs/heads/nope' })).toThrow(
      /git rev-parse failed/,
    );
  });
});
