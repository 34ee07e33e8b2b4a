import { existsSync, mkdirSync, utimesSync } from 'node:fs';
import { tmpTree } from '@ckpt/test-utils';
import { describe, expect, it } from 'vitest';
import { CkptError } from '../errors.js';
import { withLockDir } from './lock-dir.js';

describe('withLockDir', () => {
  it('should hold the lock while the function runs and remove it after', () => {
    const t = tmpTree();
    const lock = t.path('doc.json.lock');
    const seen = withLockDir(lock, () => existsSync(lock));
    expect(seen).toBe(true);
    expect(existsSync(lock)).toBe(false);
    t.cleanup();
  });

  it('should take over a stale lock', () => {
    const t = tmpTree();
    const lock = t.path('doc.json.lock');
    mkdirSync(lock);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    expect(withLockDir(lock, () => 42)).toBe(42);
    t.cleanup();
  });

  it('should give up on a fresh lock held by someone else after the timeout', () => {
    const t = tmpTree();
    const lock = t.path('doc.json.lock');
    mkdirSync(lock);
    expect(() => withLockDir(lock, () => 1, { timeoutMs: 100, staleMs: 60_000 })).toThrow(CkptError);
    t.cleanup();
  });
});
