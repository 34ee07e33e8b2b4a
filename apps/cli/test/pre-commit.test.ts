import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { dialectIds, matchCatalog } from '@ckpt/core';
import { tmpTree } from '@ckpt/test-utils';
import { describe, expect, it } from 'vitest';
import { cliPath, repoRoot } from './run-cli.js';

interface Hook {
  id: string;
  entry: string;
  files: string;
  [k: string]: string;
}

/** Reads .pre-commit-hooks.yaml: a list of flat maps with plain or single-quoted scalars (what the generator writes). */
function readHooks(): Hook[] {
  const text = readFileSync(join(repoRoot, '.pre-commit-hooks.yaml'), 'utf8');
  return text
    .split(/^- /m)
    .slice(1)
    .map((block) => {
      const hook: Record<string, string> = {};
      for (const line of `  ${block}`.split('\n')) {
        const m = /^ {2}([\w-]+): (.*)$/.exec(line);
        if (m) hook[m[1]!] = m[2]!.startsWith("'") ? m[2]!.slice(1, -1).replace(/''/g, "'") : m[2]!;
      }
      return hook as Hook;
    });
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [relative(repoRoot, join(dir, e.name))],
  );
}

/** Runs a hook the way pre-commit does: its entry, then the staged file names that its `files` regex selects. */
function runHook(hook: Hook, files: readonly string[], cwd: string) {
  const selected = files.filter((f) => new RegExp(hook.files).test(f));
  const [cmd, ...args] = hook.entry.split(' ');
  // The entry script runs bundle/bin/ckpt.js; here the workspace's CLI stands in for it.
  expect(cmd).toBe('scripts/pre-commit/ckpt');
  const r = spawnSync(process.execPath, [cliPath, ...args, ...selected], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: '' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, selected };
}

const hooks = readHooks();
const fixtureFiles = walk(join(repoRoot, 'test-fixtures')).filter((f) => !f.endsWith('expected.json'));

describe('.pre-commit-hooks.yaml', () => {
  it('should have one hook for all files and one per dialect, each a script hook running ckpt validate', () => {
    expect(hooks.map((h) => h.id)).toEqual(['ckpt-validate', ...dialectIds.map((d) => `ckpt-validate-${d}`)]);
    for (const h of hooks) {
      expect(h.language).toBe('script');
      expect(h.entry).toMatch(/^scripts\/pre-commit\/ckpt validate( --dialect [a-z-]+)?$/);
      expect(h.additional_dependencies).toBeUndefined();
      expect(h.pass_filenames).toBe('true');
    }
    const entry = readFileSync(join(repoRoot, 'scripts/pre-commit/ckpt'), 'utf8');
    expect(entry).toContain('bundle/bin/ckpt.js');
    expect(statSync(join(repoRoot, 'scripts/pre-commit/ckpt')).mode & 0o111).not.toBe(0);
  });

  it("should select exactly the files the catalog's patterns match", () => {
    for (const h of hooks) {
      const dialect = h.entry.split('--dialect ')[1];
      const byHook = fixtureFiles.filter((f) => new RegExp(h.files).test(f));
      const byCatalog = fixtureFiles.filter((f) => {
        const e = matchCatalog(f);
        return (
          e !== undefined &&
          (!dialect || [e.kind, ...(e.kinds ?? [])].some((k) => k.startsWith(`${dialect}/`)))
        );
      });
      expect(byHook, h.id).toEqual(byCatalog);
      expect(byHook.length, h.id).toBeGreaterThan(0);
    }
  });

  it('should fail with annotations on a bad fixture and pass on a valid one', () => {
    const team = hooks.find((h) => h.id === 'ckpt-validate-team')!;
    const bad = runHook(
      team,
      fixtureFiles.filter((f) => f.startsWith('test-fixtures/team/event-wrong-enum/')),
      repoRoot,
    );
    expect(bad.selected.length).toBeGreaterThan(0);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(
      /^::error file=test-fixtures\/team\/event-wrong-enum\/.*title=ckpt schema\/enum::/m,
    );
    const good = runHook(
      team,
      fixtureFiles.filter((f) => f.startsWith('test-fixtures/team/valid-build-run/')),
      repoRoot,
    );
    expect(good.code).toBe(0);
  });

  it('should annotate a bad file staged in a fresh repository, ignoring files that are not checkpoints', () => {
    const all = hooks[0]!;
    const t = tmpTree({
      'src/index.js': 'console.log(1)\n',
      '.ulpi/runs/add-oauth.json': '{"schemaVersion": 2, "id": 5}\n',
    });
    try {
      const r = runHook(all, ['src/index.js', '.ulpi/runs/add-oauth.json'], t.dir);
      expect(r.selected).toEqual(['.ulpi/runs/add-oauth.json']);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^::error file=\.ulpi\/runs\/add-oauth\.json,line=1/m);
    } finally {
      t.cleanup();
    }
  });
});
