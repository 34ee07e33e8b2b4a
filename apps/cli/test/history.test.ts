import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './run-cli.js';

const sample = join(repoRoot, 'test-fixtures/sample-project');
const TEAM = '20261128T140312558021Z-a41c7f';

describe('ckpt history', () => {
  it("should print a team task's events oldest first, each with its file and line", () => {
    const r = runCli([
      'history',
      sample,
      '--run',
      TEAM,
      '--unit',
      'build-be-20261128T1404Z',
      '--color',
      'never',
    ]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(`team/${TEAM}  unit build-be-20261128T1404Z  3 events`);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/)[1])).toEqual(['started', 'failed', 'retried']);
    expect(lines[3]).toMatch(
      /attempt 2 started as a retry of #1: .*task_started-build-be-20261128T1404Z-a2-831878\.json:3$/,
    );
  });

  it('should print the versioned JSON document, filtered by kind', () => {
    const r = runCli(['history', sample, '--run', 'ulpi/add-oauth', '--kinds', 'started,finished', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.formatVersion).toBe(2);
    expect(doc.run).toEqual({ dialect: 'ulpi', id: 'add-oauth-20261129T071300Z' });
    expect(doc.entries.map((e: { kind: string }) => e.kind)).toEqual([
      'started',
      'finished',
      'started',
      'started',
      'finished',
    ]);
    expect(doc.entries[0]).toMatchObject({
      file: '.ulpi/runs/add-oauth-20261129T071300Z.events.jsonl',
      line: 9,
    });
    expect(doc.kinds.created).toBe(6);
  });

  it('should refuse an unknown kind (exit 2) and an unknown unit (exit 3) with one line', () => {
    const bad = runCli(['history', sample, '--run', TEAM, '--kinds', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^ckpt: unknown kind\(s\) nope; kinds are created, started/);
    const none = runCli(['history', sample, '--run', TEAM, '--unit', 'no-such-task']);
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('no unit "no-such-task"');
  });
});
