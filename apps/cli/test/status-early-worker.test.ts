import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, repoRoot } from './run-cli.js';

/** Events written into the run: more than the pool's 2 x 2000 items, and an events folder of 64 KiB or more. */
const TASKS = 2100;

/** Logs, at exit, the arguments of every worker thread the main thread started. */
const COUNT_WORKERS = `const wt = require('node:worker_threads');
if (wt.isMainThread) {
  const started = [];
  const W = wt.Worker;
  wt.Worker = class extends W {
    constructor(file, opts) {
      started.push(opts?.argv ?? []);
      super(file, opts);
    }
  };
  process.on('exit', () => process._rawDebug('WORKERS ' + JSON.stringify(started)));
}
`;

let tmp: string;
let project: string;
let preload: string;

/** A team project whose one run holds 2 x TASKS events (task_started and task_finished of each task). */
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'ckpt-status-early-'));
  project = join(tmp, 'project');
  preload = join(tmp, 'count-workers.cjs');
  writeFileSync(preload, COUNT_WORKERS);
  const fixture = join(repoRoot, 'test-fixtures', 'team', 'valid-build-run', '.team');
  cpSync(fixture, join(project, '.team'), { recursive: true });
  const runs = join(project, '.team', 'runs');
  const run = readdirSync(runs).find((n) => n !== 'current')!;
  const events = join(runs, run, 'events');
  mkdirSync(events, { recursive: true });
  const base = Date.UTC(2026, 9, 28, 14, 0, 0);
  for (let i = 0; i < TASKS; i++) {
    const task = `t${String(i).padStart(5, '0')}-20261028T1300Z`;
    for (const [k, event] of (['task_started', 'task_finished'] as const).entries()) {
      const at = new Date(base + (2 * i + k) * 1000).toISOString();
      const stamp = `${at.replace(/[-:]/g, '').replace('.', '').slice(0, -1)}000Z`;
      const hex = ((i * 2 + k) * 2654435761).toString(16).slice(-6).padStart(6, '0');
      writeFileSync(
        join(events, `${stamp}-${event}-${task}-a1-${hex}.json`),
        JSON.stringify({
          event,
          at: `${at.slice(0, 19)}Z`,
          run_id: run,
          task_id: task,
          stage: 'build',
          agent: 'fe',
          attempt: 1,
          status: k === 0 ? 'running' : i % 7 === 0 ? 'failed' : 'completed',
          session: null,
          parent_session: null,
          inputs: [],
          artifacts: [],
          evidence: '',
          next: '',
        }),
      );
    }
  }
  // What core's project index reads ahead on its pool (view/project-index.ts, manyEvents).
  expect(statSync(events).size).toBeGreaterThanOrEqual(65536);
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

function status(args: readonly string[], env: Record<string, string> = {}) {
  const all: Record<string, string | undefined> = {
    ...process.env,
    NO_COLOR: '1',
    CKPT_NOW: '2026-12-01T10:00:00Z',
    ...env,
  };
  for (const k of ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', ...(env.CKPT_THREADS ? [] : ['CKPT_THREADS'])])
    delete all[k];
  const r = spawnSync(process.execPath, ['-r', preload, cliPath, ...args], {
    cwd: repoRoot,
    env: all as NodeJS.ProcessEnv,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const line = r.stderr.split('\n').find((l) => l.startsWith('WORKERS '));
  const workers = JSON.parse(line?.slice('WORKERS '.length) ?? 'null') as string[][] | null;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.replace(/^WORKERS .*\n?/m, ''), workers };
}

const early = (argv: readonly string[]) => argv.includes('--early');

describe('ckpt status and list on a large team run (bin/ckpt.js starts the read-ahead worker at its first line)', () => {
  it.each([[['status']], [['status', '--json']], [['list', '--json']], [['status', '--dialect', 'team']]])(
    '%j: the output of the worker core starts itself, with one worker only: the early one',
    (args) => {
      const own = status([...args, project], { CKPT_THREADS: '1' });
      const started = status([...args, project]);
      expect(own.stdout.length).toBeGreaterThan(100);
      expect(started.stdout === own.stdout).toBe(true);
      expect(started.stderr).toBe(own.stderr);
      expect(started.code).toBe(own.code);
      // CKPT_THREADS=1: no early worker; core's read-ahead starts its own.
      expect(own.workers?.filter(early)).toEqual([]);
      if (availableParallelism() < 2) return;
      expect(own.workers).toHaveLength(1);
      // The worker started at the first line is the one core's read-ahead used: no other was started.
      expect(started.workers).toHaveLength(1);
      expect(early(started.workers![0]!)).toBe(true);
    },
  );

  it('should start none for another dialect, a small project or a project given as a file', () => {
    for (const args of [
      ['status', '--dialect', 'ulpi', project],
      ['status', resolve(repoRoot, 'test-fixtures', 'sample-project')],
      ['status', join(project, '.team', 'runs', 'current')],
    ])
      expect(status(args).workers?.filter(early)).toEqual([]);
  });
});
