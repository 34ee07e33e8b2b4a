// Real crashes: the CLI is killed by strace (`-e inject=<syscall>:signal=KILL:when=<k>`) at each durable-write
// step of a writer verb, in a real process, without changing its code (FACTS.md). After each kill the tree must be
// one the reader accepts, with nothing half-written and nothing done lost, and the verb must be retryable.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { describe, expect, it } from 'vitest';
import { cliPath, runCli } from './run-cli.js';

const strace = spawnSync('strace', ['-V'], { encoding: 'utf8' });

function killedAt(syscall: string, k: number, args: readonly string[], cwd: string) {
  const r = spawnSync(
    'strace',
    [
      '-f',
      '-qq',
      '-o',
      '/dev/null',
      '-e',
      `trace=${syscall}`,
      '-e',
      `inject=${syscall}:signal=KILL:when=${k}`,
      process.execPath,
      cliPath,
      ...args,
    ],
    { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  return r.status === null ? 137 : r.status;
}

/** How often the verb makes a syscall, counted on a throwaway copy of the tree. */
function countCalls(syscall: string, args: readonly string[], base: string): number {
  const scratch = `${base}-count-${syscall}`;
  cpSync(base, scratch, { recursive: true });
  const log = `${scratch}.log`;
  spawnSync(
    'strace',
    ['-f', '-qq', '-o', log, '-e', `trace=${syscall}`, process.execPath, cliPath, ...args],
    { cwd: scratch },
  );
  const n = readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l.includes(`${syscall}(`)).length;
  rmSync(log);
  rmSync(scratch, { recursive: true, force: true });
  return n;
}

const errorsOf = (cwd: string) => {
  const r = runCli(['validate', '.', '--reporter', 'json'], { cwd });
  return (JSON.parse(r.stdout).findings as { code: string; severity: string }[]).filter(
    (f) => f.severity === 'error',
  );
};

const taskStatus = (cwd: string, run: string): string => {
  const status = JSON.parse(runCli(['team', 'status', '--run', run, '--json'], { cwd }).stdout);
  return (status.run.units as { id: string; status: string }[]).find((u) => u.id === 'build-fe')!.status;
};

describe('writers killed at every durable-write step (strace)', () => {
  it('should have strace, which .ci/run installs', () => {
    expect(strace.status, 'install strace (apt-get install strace)').toBe(0);
  });

  it('team finish-task: the attempt is running (uncertain) or completed, never half-written, and can be finished after', () => {
    const t = tmpTree({ '.team/06-architecture.md': 'arch\n', '.team/07-build-fe.md': 'fe\n' });
    const base = join(t.dir, 'base');
    mkdirSync(base);
    cpSync(join(t.dir, '.team'), join(base, '.team'), { recursive: true });
    const run = runCli(['team', 'start-run', '--profile', 'new', '--stage', 'build'], {
      cwd: base,
    }).stdout.trim();
    runCli(
      [
        'team',
        'start-task',
        '--run',
        run,
        '--task',
        'build-fe',
        '--stage',
        'build',
        '--agent',
        'fe',
        '--input',
        '.team/06-architecture.md',
      ],
      { cwd: base },
    );
    const finish = [
      'team',
      'finish-task',
      '--run',
      run,
      '--task',
      'build-fe',
      '--status',
      'completed',
      '--artifact',
      '.team/07-build-fe.md',
      '--evidence',
      'unit tests: 3 pass',
      '--next',
      'wait for be',
    ];
    let points = 0;
    for (const syscall of ['fsync', 'link', 'unlink']) {
      const calls = countCalls(syscall, finish, base);
      for (let k = 1; k <= calls; k++) {
        const dir = join(t.dir, `${syscall}-${k}`);
        cpSync(base, dir, { recursive: true });
        expect(killedAt(syscall, k, finish, dir), `${syscall} #${k}`).toBe(137);
        points++;
        expect(errorsOf(dir), `${syscall} #${k}`).toEqual([]);
        expect(['running (uncertain)', 'completed'], `${syscall} #${k}`).toContain(taskStatus(dir, run));
        const again = runCli(finish, { cwd: dir });
        expect([0, 2], `${syscall} #${k}: ${again.stderr}`).toContain(again.code);
        expect(taskStatus(dir, run), `${syscall} #${k} after finishing again`).toBe('completed');
        expect(errorsOf(dir)).toEqual([]);
      }
    }
    expect(points).toBeGreaterThanOrEqual(3);
    t.cleanup();
  });

  it('ulpi unit: the document is the old or the new one, never a half one', () => {
    const t = tmpTree();
    const base = join(t.dir, 'base');
    mkdirSync(join(base, '.ulpi/runs'), { recursive: true });
    const file = '.ulpi/runs/crash-run.json';
    expect(
      runCli(['ulpi', 'init', file, '--task', 'crash test', '--units', 'a,b', '--id', 'crash-run'], {
        cwd: base,
      }).code,
    ).toBe(0);
    const before = JSON.parse(readFileSync(join(base, file), 'utf8'));
    const verb = ['ulpi', 'unit', file, 'a', 'done', '--note', 'merged'];
    let points = 0;
    for (const syscall of ['fsync', 'rename', 'rmdir']) {
      const calls = countCalls(syscall, verb, base);
      for (let k = 1; k <= calls; k++) {
        const dir = join(t.dir, `${syscall}-${k}`);
        cpSync(base, dir, { recursive: true });
        expect(killedAt(syscall, k, verb, dir), `${syscall} #${k}`).toBe(137);
        points++;
        const doc = JSON.parse(readFileSync(join(dir, file), 'utf8'));
        expect(['pending', 'done'], `${syscall} #${k}`).toContain(doc.units.a.status);
        if (doc.units.a.status === 'pending') expect(doc).toEqual(before);
        expect(errorsOf(dir), `${syscall} #${k}`).toEqual([]);
      }
    }
    expect(points).toBeGreaterThanOrEqual(3);
    t.cleanup();
  });
});
