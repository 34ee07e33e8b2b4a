// `ckpt view` leaves no child process behind while it serves. @parcel/watcher, left to choose its backend on Linux,
// probes for watchman with a shell it never reaps when watchman is absent: a zombie for the server's whole life.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliPath, repoRoot } from './run-cli.js';

const sample = resolve(repoRoot, 'test-fixtures/sample-project');
let child: ChildProcess | undefined;

afterEach(() => {
  child?.kill('SIGTERM');
  child = undefined;
});

/** The child processes of `pid`, with their state letter (Z: a zombie), from /proc. */
function children(pid: number): string[] {
  const out: string[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    for (const c of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) {
      const stat = readFileSync(`/proc/${c}/stat`, 'utf8');
      out.push(stat.slice(stat.indexOf('(')));
    }
  }
  return out;
}

describe.runIf(process.platform === 'linux')('ckpt view', () => {
  it('should have no child process once its watcher runs, when watchman is not installed', async () => {
    const env = { ...process.env, NO_COLOR: '1', PATH: process.env.PATH ?? '' };
    delete env.WATCHMAN_SOCK;
    const proc = spawn(process.execPath, [cliPath, 'view', sample, '--port', '0'], { cwd: repoRoot, env });
    child = proc;
    let out = '';
    const url = await new Promise<string>((done, fail) => {
      proc.stdout.on('data', (d) => {
        out += String(d);
        if (out.includes('\n')) done(out.split('\n')[0]!);
      });
      proc.on('exit', (code) => fail(new Error(`exited ${code}`)));
    });
    // Ready means the first load ended and the watcher subscribed (its backend is in the progress).
    for (;;) {
      const p = (await (await fetch(new URL('/api/progress', url))).json()) as {
        state: string;
        watcher?: string;
      };
      if (p.state === 'ready' && p.watcher) {
        expect(p.watcher).toBe('parcel');
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(children(proc.pid!)).toEqual([]);
  }, 60_000);
});
