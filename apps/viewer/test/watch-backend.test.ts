// Which backend the viewer asks @parcel/watcher for. Left to choose on Linux, @parcel/watcher probes for watchman
// through a shell it never reaps when watchman is absent; the viewer names inotify then, and leaves the choice to
// @parcel/watcher whenever watchman could answer.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parcelBackend } from '../src/parcel-backend.js';

let dir: string;
let withWatchman: string;
let without: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ckpt-parcel-backend-'));
  withWatchman = join(dir, 'bin');
  without = join(dir, 'empty');
  mkdirSync(withWatchman);
  mkdirSync(without);
  mkdirSync(join(without, 'watchman')); // a folder of that name is not a program
  writeFileSync(join(withWatchman, 'watchman'), '#!/bin/sh\nexit 1\n');
  chmodSync(join(withWatchman, 'watchman'), 0o755);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the @parcel/watcher backend', () => {
  it('should be inotify on Linux when no folder of PATH holds watchman', () => {
    expect(parcelBackend('linux', { PATH: without })).toBe('inotify');
    expect(parcelBackend('linux', { PATH: [without, join(dir, 'missing')].join(delimiter) })).toBe('inotify');
  });

  it("should be @parcel/watcher's own choice when watchman is on PATH", () => {
    expect(parcelBackend('linux', { PATH: [without, withWatchman].join(delimiter) })).toBeUndefined();
  });

  it("should be @parcel/watcher's own choice when WATCHMAN_SOCK names watchman's socket", () => {
    expect(parcelBackend('linux', { PATH: without, WATCHMAN_SOCK: join(dir, 'sock') })).toBeUndefined();
  });

  it("should be @parcel/watcher's own choice when there is no PATH (the shell searches its default)", () => {
    expect(parcelBackend('linux', {})).toBeUndefined();
  });

  it("should be @parcel/watcher's own choice on other platforms", () => {
    for (const platform of ['darwin', 'win32', 'freebsd'] as const) {
      expect(parcelBackend(platform, { PATH: without })).toBeUndefined();
    }
  });
});
