import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import type { CkptError } from '../../errors.js';
import { fakeProbe, loadFresh, testInit } from './test-helpers.js';
import { initResumableRun } from './write.js';
import { acquireResumableLock } from './write-lock.js';

// Real processes race through the built library, as two shells running `ckpt resumable lock` would.
const dist = resolve(import.meta.dirname, '../../../dist/index.js');
const holderScript = `
import { acquireResumableLock } from ${JSON.stringify(dist)};
const root = process.argv[1];
let out;
try { out = acquireResumableLock(root, { pid: process.pid }); } catch (e) { out = 'refused:' + e.code; }
process.stdout.write(out + '\\n');
setInterval(() => {}, 1000);
`;

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

function startHolder(root: string): Promise<{ child: ChildProcess; outcome: string }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', holderScript, root], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((res, rej) => {
    let buf = '';
    child.stdout!.on('data', (d) => {
      buf += d;
      if (buf.includes('\n')) res({ child, outcome: buf.trim() });
    });
    child.on('exit', (code) => rej(new Error(`holder exited early with ${code}`)));
  });
}

const killed = (c: ChildProcess) =>
  new Promise<void>((res) => {
    c.once('exit', () => res());
    c.kill('SIGKILL');
  });

describe('acquireResumableLock across processes', () => {
  it('should refuse while a live process holds the lock, then log and replace it once that process is killed', async () => {
    const t = tmpTree();
    const root = initResumableRun(testInit(t.dir));
    const { child, outcome } = await startHolder(root);
    expect(outcome).toBe('acquired');
    let code: string | undefined;
    try {
      acquireResumableLock(root);
    } catch (e) {
      code = (e as CkptError).code;
    }
    expect(code).toBe('LOCK_HELD');
    expect(loadFresh(root).findings.map((f) => f.code)).toEqual(['resumable/lock-active']);
    await killed(child);
    expect(loadFresh(root).findings.map((f) => f.code)).toEqual(['resumable/lock-stale']);
    expect(acquireResumableLock(root)).toBe('replaced-stale');
    const log = readFileSync(join(root, 'run.log'), 'utf8');
    expect(log).toContain(`stale lock replaced (stale): `);
    expect(log).toContain(`pid="${child.pid}"`);
    expect(readFileSync(join(root, 'run.lock'), 'utf8')).toContain(`pid="${process.pid}"`);
    t.cleanup();
  }, 20_000);

  it('should let exactly one of several processes take over a stale lock', async () => {
    const t = tmpTree();
    const root = initResumableRun(testInit(t.dir));
    // A lock of this host whose process is gone: stale for every racer.
    acquireResumableLock(root, { pid: 999_999_9, probe: fakeProbe([], hostname()) });
    const racers = await Promise.all([1, 2, 3, 4].map(() => startHolder(root)));
    const outcomes = racers.map((r) => r.outcome).sort();
    expect(outcomes.filter((o) => o === 'replaced-stale')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'refused:LOCK_HELD')).toHaveLength(3);
    const log = readFileSync(join(root, 'run.log'), 'utf8');
    expect(log.match(/stale lock replaced/g)).toHaveLength(1);
    t.cleanup();
  }, 30_000);
});
