// `ckpt view` stopped by SIGINT or SIGTERM during its first load: the load is cancelled rather than waited for, and
// the process ends as a stop after the load does (the same exit code, the same stderr). Facts only, no timing: the
// page's event stream, open until the process ended, never said that the load had ended, and no process the server
// started outlives it.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script of the bench package, no types
import { generateTeamRun } from '../../../packages/bench/src/view-corpus.mjs';
import { cliPath, repoRoot } from './run-cli.js';

/** ~30,000 event files: a first load long enough to be stopped while it reads. */
const TASKS = 3000;
const sample = resolve(repoRoot, 'test-fixtures/sample-project');

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ckpt-view-stop-'));
  generateTeamRun(dir, TASKS, 5);
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Server {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** `ckpt view <project> --port 0`, once it has printed its address. */
async function serve(project: string): Promise<Server> {
  const child = spawn(process.execPath, [cliPath, 'view', project, '--port', '0'], {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: '1' },
  });
  let out = '';
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += String(d);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal, stderr })),
  );
  const url = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (d) => {
      out += String(d);
      if (out.includes('\n')) done(out.split('\n')[0]!);
    });
    void exited.then((r) => fail(new Error(`exited ${r.code}: ${r.stderr}`)));
  });
  // stderr is another pipe: wait for its line.
  while (!stderr.includes('Ctrl-C stops')) await new Promise((r) => setTimeout(r, 20));
  return { child, url, exited };
}

async function progress(url: string): Promise<{ state: string; message: string }> {
  return (await fetch(new URL('/api/progress', url))).json() as Promise<{ state: string; message: string }>;
}

/** Everything the server's event stream sends until the stream ends (the server stopped). */
function eventStream(url: string): { text: () => string; ended: Promise<void> } {
  let text = '';
  const ended = new Promise<void>((done) => {
    const req = request(new URL('/api/events', url), (res) => {
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('close', () => done());
      res.on('error', () => done());
    });
    req.on('error', () => done());
    req.end();
  });
  return { text: () => text, ended };
}

/** The processes whose parent is `pid` (Linux: /proc); undefined where that cannot be read. */
function childrenOf(pid: number): number[] | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The parent's pid is the second field after the command, which is in parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

/** Whether process `pid` exists and has not ended (a zombie has: it only waits to be reaped). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z';
  } catch {
    return false;
  }
}

const normalized = (stderr: string, project: string, url: string) =>
  stderr.replaceAll(url, '<url>').replaceAll(project, '<project>');

describe('ckpt view stopped during its first load', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`should cancel the load on ${signal} and end as a stop after the load does`, async () => {
      // A stop after the first load: what a stop during it must look like.
      const ready = await serve(sample);
      while ((await progress(ready.url)).state === 'loading') await new Promise((r) => setTimeout(r, 20));
      ready.child.kill(signal);
      const afterReady = await ready.exited;

      const server = await serve(dir);
      const stream = eventStream(server.url);
      let seen = await progress(server.url);
      // The loader reads the run's documents (the listing and the read-ahead workers have started).
      while (seen.state === 'loading' && !seen.message.startsWith('reading')) {
        await new Promise((r) => setTimeout(r, 5));
        seen = await progress(server.url);
      }
      expect(seen.state).toBe('loading');
      const children = childrenOf(server.child.pid!);
      server.child.kill(signal);
      const stopped = await server.exited;
      await stream.ended;
      // The stream was open from before the signal until the process ended: a load that ended meanwhile would
      // have said so on it (a progress event with the state "ready").
      expect(stream.text()).toContain('event: hello');
      expect(stream.text()).not.toContain('"state":"ready"');
      expect(stopped.code).toBe(afterReady.code);
      expect(stopped.code).toBe(0);
      expect(stopped.signal).toBeNull();
      expect(normalized(stopped.stderr, dir, server.url)).toBe(
        normalized(afterReady.stderr, sample, ready.url),
      );
      // Nothing it started runs on (threads end with the process; a child process would not). @parcel/watcher's
      // probe for watchman (`sh -c watchman ...`, not installed here) is such a child: it has ended, and only waits
      // to be reaped.
      for (const pid of children ?? []) expect(running(pid), `process ${pid}`).toBe(false);
    }, 120_000);
  }
});
