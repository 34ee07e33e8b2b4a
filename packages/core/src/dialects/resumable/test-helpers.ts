import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type TmpTree, tmpTree } from '@ckpt/test-utils';
import { createTreeContext } from '../../check/validate-files.js';
import { CkptError } from '../../errors.js';
import type { Finding } from '../../findings/finding.js';
import { runRootFindings } from './index.js';
import { loadRunRoot, type RunRoot } from './load.js';
import type { LockProbe } from './lock.js';
import { initResumableRun, markResumableStageDone, setResumableCheck } from './write.js';
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

/** The writer identity the tests use: a live pid 4242 on this host, no stale-mutex wait. */
export const testWriter = { probe: fakeProbe([4242]), pid: 4242, user: 'tester', mutex: { staleMs: 0 } };

/** A new run root made by `init` as `writer`, with the artifacts of `stages` (by default those every gate asks for). */
export function freshRun(
  writer: Parameters<typeof initResumableRun>[1] = testWriter,
  stages: readonly string[] = ['S1', 'S2', 'S3'],
): { t: TmpTree; root: string } {
  const t = tmpTree();
  const root = initResumableRun(testInit(t.dir), writer);
  writeArtifacts(root, stages);
  return { t, root };
}

/** The exit code a writer call ends with: 0 when it returns, the CkptError's code when it refuses. */
export function refusal(fn: () => unknown): number {
  try {
    fn();
  } catch (e) {
    return e instanceof CkptError ? e.exitCode : -1;
  }
  return 0;
}

/** Checks every item and marks S1–S3 done: the push is confirmed, finalization may start. */
export function driveToPushConfirmed(root: string): void {
  for (const [s, i] of [
    ['S1', 'A'],
    ['S1', 'B'],
    ['S2', 'C'],
    ['S3', 'PUSH_ATTEMPTED'],
    ['S3', 'REMOTE_CONFIRMED'],
  ] as const)
    setResumableCheck(root, s, i, '1', testWriter);
  for (const s of ['S1', 'S2', 'S3']) markResumableStageDone(root, s, testWriter);
}
