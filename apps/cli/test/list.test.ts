import { loadProject, summariesDocument } from '@ckpt/core';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './run-cli.js';

const sample = 'test-fixtures/sample-project';

describe('ckpt list', () => {
  it('should print every run on one line, exactly the list `ckpt status` prints', () => {
    const list = runCli(['list', sample]);
    expect(list.code).toBe(0);
    expect(list.stdout).toBe(runCli(['status', sample]).stdout);
    const runs = loadProject(`${repoRoot}/${sample}`);
    const lines = list.stdout.trimEnd().split('\n');
    // A header, one line per run, and the count.
    expect(lines).toHaveLength(runs.length + 2);
    expect(lines.at(-1)).toMatch(new RegExp(`^${runs.length} runs`));
    for (const r of runs) expect(lines.filter((l) => l.includes(r.id))).toHaveLength(1);
  });

  it('should print the one-line facts of every run as JSON, without units', () => {
    const r = runCli(['list', sample, '--json', '--dialect', 'ulpi']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    const runs = loadProject(`${repoRoot}/${sample}`, { dialects: ['ulpi'] });
    expect(doc).toEqual(JSON.parse(JSON.stringify(summariesDocument(runs))));
    expect(doc.runs.length).toBeGreaterThan(0);
    expect(
      doc.runs.every((x: { dialect: string; units?: unknown }) => x.dialect === 'ulpi' && !x.units),
    ).toBe(true);
  });

  it('should exit 1 with --exit-status when a run needs attention, and 3 for a missing directory', () => {
    expect(runCli(['list', sample, '--exit-status']).code).toBe(1);
    const missing = runCli(['list', 'no/such/dir']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toBe('ckpt: cannot read "no/such/dir": no such file or directory\n');
  });
});
