import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fcParams, tmpTree } from '@ckpt/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadTeamRuns, teamStatus } from './status.js';
import { startTeamRun, startTeamTask } from './write.js';

// Real processes import the built package (run `pnpm --filter @ckpt/core build` first).
const dist = resolve(import.meta.dirname, '../../../dist/index.js');

/** A process that waits until `at` (so all start together), then finishes one task. Exit 0 written, 2 refused. */
const SCRIPT = `
const [dist, projectDir, run, task, status, at] = process.argv.slice(1);
const core = await import(dist);
while (Date.now() < Number(at)) {}
try {
  core.finishTeamTask({ projectDir, run, task, status, evidence: 'from ' + process.pid });
  process.exit(0);
} catch (e) {
  process.stderr.write(String(e.message));
  process.exit(e.exitCode === 2 ? 2 : 1);
}`;

function finishIn(dir: string, run: string, task: string, status: string, at: number): Promise<number> {
  return new Promise((res, rej) => {
    const p = spawn(
      process.execPath,
      ['--input-type=module', '-e', SCRIPT, dist, dir, run, task, status, String(at)],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let err = '';
    p.stderr.on('data', (d) => {
      err += d;
    });
    p.on('error', rej);
    p.on('exit', (code) =>
      code === 0 || code === 2 ? res(code) : rej(new Error(`child exited ${code}: ${err}`)),
    );
  });
}

describe.skipIf(!existsSync(dist))('team writers racing in real processes', () => {
  it('should lose nothing when processes finish different tasks at the same moment', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 5 }), async (n) => {
        const t = tmpTree();
        try {
          const { runId: run } = startTeamRun({ projectDir: t.dir, profile: 'new', stage: 'build' });
          const tasks = Array.from({ length: n }, (_, i) => `build-${i}`);
          for (const task of tasks)
            startTeamTask({ projectDir: t.dir, run, task, stage: 'build', agent: 'a' });
          const at = Date.now() + 400;
          const codes = await Promise.all(tasks.map((task) => finishIn(t.dir, run, task, 'completed', at)));
          expect(codes).toEqual(tasks.map(() => 0));
          const model = loadTeamRuns(t.dir).selected!;
          expect(model.tasks.map((x) => x.latest.status)).toEqual(tasks.map(() => 'completed'));
        } finally {
          t.cleanup();
        }
      }),
      fcParams(3),
    );
  }, 60_000);

  it('should report two processes finishing the same attempt as a conflict, never a silent pick', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('failed', 'interrupted', 'awaiting_approval'), async (other) => {
        const t = tmpTree();
        try {
          const { runId: run } = startTeamRun({ projectDir: t.dir, profile: 'new', stage: 'build' });
          startTeamTask({ projectDir: t.dir, run, task: 'build-fe', stage: 'build', agent: 'fe' });
          const at = Date.now() + 400;
          const codes = await Promise.all([
            finishIn(t.dir, run, 'build-fe', 'completed', at),
            finishIn(t.dir, run, 'build-fe', other, at),
          ]);
          const task = loadTeamRuns(t.dir).selected!.tasks[0]!;
          const written = codes.filter((c) => c === 0).length;
          expect(written).toBeGreaterThanOrEqual(1);
          expect(task.latest.terminals).toHaveLength(written);
          if (written === 2) {
            expect(task.latest.status).toBe('conflict');
            const s = teamStatus(t.dir);
            expect(s.run?.findings.map((f) => f.code)).toContain('team/conflicting-terminal-events');
            expect(s.resume?.conflicts.map((c) => c.task)).toEqual(['build-fe']);
            expect(s.resume?.completed).toEqual([]);
          } else expect(codes).toContain(2);
        } finally {
          t.cleanup();
        }
      }),
      fcParams(4),
    );
  }, 60_000);
});
