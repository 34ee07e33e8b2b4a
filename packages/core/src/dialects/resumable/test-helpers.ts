import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createTreeContext } from '../../check/validate-files.js';
import type { Finding } from '../../findings/finding.js';
import { runRootFindings } from './index.js';
import { loadRunRoot, type RunRoot } from './load.js';
import type { LockProbe } from './lock.js';
import type { ResumableInit } from './write-init.js';

/** A contract for tests. */
export function testInit(configDir: string, over: Partial<ResumableInit> = {}): ResumableInit {
  return {
    configDir,
    task: 'demo',
    runId: '20261129T100000Z',
    repoRoot: '/srv/repo',
    branch: 'main',
    basePin: 'a'.repeat(40),
    expectedOldSha: 'b'.repeat(40),
    planPath: 'docs/plan.md',
    reportTargets: 'CHANGELOG.md',
    stages: ['S1', 'S2', 'S3'],
    checks: ['S1:A', 'S1:B', 'S2:C', 'S3:PUSH_ATTEMPTED', 'S3:REMOTE_CONFIRMED'],
    ...over,
  };
}

export function writeArtifacts(root: string, stages: readonly string[]): void {
  mkdirSync(join(root, 'artifacts'), { recursive: true });
  for (const s of stages) writeFileSync(join(root, 'artifacts', `${s}-evidence.txt`), `${s}\n`);
}

/** Loads a run root fresh (no cache) with a probe, and returns it with all its findings. */
export function loadFresh(root: string, probe?: LockProbe): { run: RunRoot; findings: Finding[] } {
  const ctx = createTreeContext({}, (abs) => relative(join(root, '..'), abs));
  const run = loadRunRoot(root, ctx, probe);
  return { run, findings: runRootFindings(run) };
}

export const fakeProbe = (alive: readonly number[], host = 'this-host'): LockProbe => ({
  host,
  isAlive: (pid) => alive.includes(pid),
});
