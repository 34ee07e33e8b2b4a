// The watcher under live change, with both backends: @parcel/watcher and the per-folder fs.watch fallback the
// packed CLI uses when the native module is not installed. Each case waits (bounded) for what the project shows.
import { cpSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createViewer, type Viewer } from '../src/index.js';
import type { WatchBackend } from '../src/watch.js';
import { bigRun, copySample } from './helpers.js';
import {
  envWithTitle,
  RELEASE,
  recordChanges,
  replaceByRename,
  ULPI_KEY,
  ULPI_RUN,
  ulpiWithTitle,
  until,
} from './live-helpers.js';

describe.each(['parcel', 'fs.watch'] as WatchBackend[])('the %s watcher', (backend) => {
  let sample: ReturnType<typeof copySample>;
  let viewer: Viewer;
  let changes: ReturnType<typeof recordChanges>;
  const title = () => viewer.project.get('ulpi', 'add-oauth-20261129T071300Z')?.title;
  // What a timeout says: the title seen, the load's state, and the last changes announced.
  const state = () => ({
    title: title(),
    progress: viewer.project.progress(),
    changes: changes.slice(-3),
  });

  beforeAll(async () => {
    sample = copySample();
    viewer = await createViewer({ dir: sample.dir, debounceMs: 20, watchBackend: backend });
    changes = recordChanges(viewer.project);
    await viewer.project.ready();
    await until('the watcher', () => viewer.watcher() !== undefined);
    // A watcher that started after the first load asks for one more (a stat re-check): the changes below start
    // when the project has settled, so each waits for its own event only.
    await until(
      'the project to settle',
      () => !viewer.project.busy,
      undefined,
      () => viewer.project.progress(),
    );
  });
  afterAll(async () => {
    await viewer?.close();
    sample?.cleanup();
  });

  it('should watch with the backend asked for', () => {
    expect(viewer.watcher()?.backend).toBe(backend);
    expect(viewer.project.progress()).toMatchObject({ state: 'ready', watcher: backend });
  });

  it('should follow a file replaced by rename and then edited in place, again and again', async () => {
    const file = join(sample.dir, ULPI_RUN);
    const before = statSync(file).ino;
    replaceByRename(file, ulpiWithTitle(file, 'renamed once'));
    expect(statSync(file).ino).not.toBe(before);
    await until('the renamed file', () => title() === 'renamed once', undefined, state);
    const delta = changes.at(-1)!.deltas.find((d) => d.key === ULPI_KEY);
    expect(delta?.kind).toBe('changed');

    // In place: same inode. A watcher that followed the old inode misses this (the bug of issue 13).
    const ino = statSync(file).ino;
    writeFileSync(file, ulpiWithTitle(file, 'edited in place'));
    expect(statSync(file).ino).toBe(ino);
    await until('the in-place edit', () => title() === 'edited in place', undefined, state);

    replaceByRename(file, ulpiWithTitle(file, 'renamed twice'));
    await until('the second rename', () => title() === 'renamed twice', undefined, state);
    writeFileSync(file, ulpiWithTitle(file, 'edited in place twice'));
    await until('the second in-place edit', () => title() === 'edited in place twice', undefined, state);
  });

  it('should see a run folder created after start, files written into it later, then its deletion', async () => {
    const dir = join(sample.dir, '.opencode/reports/late-20261130T000000Z');
    mkdirSync(dir);
    // Let the watcher see the empty folder first: its files arrive after it is watched (or not).
    await new Promise((r) => setTimeout(r, 200));
    cpSync(join(sample.dir, RELEASE), dir, { recursive: true });
    await until('the new run', () => viewer.project.get('resumable', 'late-20261130T000000Z') !== undefined);
    expect(changes.flatMap((c) => c.deltas)).toContainEqual({
      key: 'resumable/late-20261130T000000Z',
      kind: 'added',
    });

    writeFileSync(join(dir, 'state.env'), envWithTitle(join(dir, 'state.env'), 'late and edited'));
    await until(
      'an edit inside the new folder',
      () => viewer.project.get('resumable', 'late-20261130T000000Z')?.title === 'late and edited',
    );

    rmSync(dir, { recursive: true });
    await until('the deletion', () => viewer.project.get('resumable', 'late-20261130T000000Z') === undefined);
    expect(changes.at(-1)!.deltas).toContainEqual({
      key: 'resumable/late-20261130T000000Z',
      kind: 'removed',
    });
  });

  it('should see a new root in folders made after start (a nested .team/runs)', async () => {
    const team = join(sample.dir, 'services/api/.team/runs');
    mkdirSync(team, { recursive: true });
    await new Promise((r) => setTimeout(r, 200));
    const id = '20261130T010000000000Z-b0b0b0';
    mkdirSync(join(team, id, 'events'), { recursive: true });
    writeFileSync(
      join(team, id, 'run.json'),
      `${JSON.stringify({ run_id: id, created_at: '2026-11-30T01:00:00.000000Z', profile: 'new', stage: 'build', status: 'running' })}\n`,
    );
    await until('the nested team run', () => viewer.project.get('team', id) !== undefined);
  });

  it('should name only the units that changed', async () => {
    const file = join(sample.dir, ULPI_RUN);
    const doc = JSON.parse(ulpiWithTitle(file, 'unit edit'));
    const [unit] = Object.keys(doc.units);
    doc.units[unit!].note = 'a note written by the test';
    const n = changes.length;
    writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
    await until('the unit change', () =>
      changes.slice(n).some((c) => c.deltas.some((d) => d.key === ULPI_KEY && d.units?.includes(unit!))),
    );
    const d = changes
      .slice(n)
      .flatMap((c) => c.deltas)
      .find((x) => x.key === ULPI_KEY);
    expect(d?.units).toEqual([unit]);
    expect(d?.unitsRemoved).toEqual([]);
  });
});

describe('a load that fails after the first', () => {
  it('should be tried again, so the change that started it is not lost', async () => {
    const sample = copySample();
    const file = join(sample.dir, ULPI_RUN);
    let failed = 0;
    // Each load reads the ulpi run's title; the first load that sees the new one fails, as a load can (a bug, a
    // file that cannot be read for a moment). Nothing changes after it: only a retry can show the new title.
    const load = () => {
      const title = JSON.parse(readFileSync(file, 'utf8')).task as string;
      if (title === 'after a failed load' && failed++ === 0) throw new Error('this load fails');
      return [{ ...bigRun(1), id: 'probe', title }];
    };
    const viewer = await createViewer({ dir: sample.dir, debounceMs: 20, load });
    try {
      await viewer.project.ready();
      await until('the watcher', () => viewer.watcher() !== undefined);
      writeFileSync(file, ulpiWithTitle(file, 'after a failed load'));
      await until(
        'the change',
        () => viewer.project.get('ulpi', 'probe')?.title === 'after a failed load',
        undefined,
        () => ({
          failed,
          progress: viewer.project.progress(),
        }),
      );
      expect(failed).toBeGreaterThanOrEqual(2);
    } finally {
      await viewer.close();
      sample.cleanup();
    }
  });
});

describe('a project opened through a symlink', () => {
  it('should be watched by @parcel/watcher, which is given the real folder, and see changes under the link', async () => {
    const sample = copySample();
    const link = `${sample.dir}-link`;
    symlinkSync(sample.dir, link);
    const viewer = await createViewer({ dir: link, debounceMs: 20, watchBackend: 'parcel' });
    try {
      await viewer.project.ready();
      await until('the watcher', () => viewer.watcher() !== undefined);
      await until('the project to settle', () => !viewer.project.busy);
      // inotify cannot watch the link itself: without the real folder, the fallback would watch instead.
      expect(viewer.watcher()?.backend).toBe('parcel');
      const title = () => viewer.project.get('ulpi', 'add-oauth-20261129T071300Z')?.title;
      expect(title()).toBeDefined();
      const file = join(link, ULPI_RUN);
      replaceByRename(file, ulpiWithTitle(file, 'renamed under a link'));
      await until(
        'the renamed file',
        () => title() === 'renamed under a link',
        undefined,
        () => ({
          title: title(),
          progress: viewer.project.progress(),
        }),
      );
      writeFileSync(file, ulpiWithTitle(file, 'edited under a link'));
      await until('the in-place edit', () => title() === 'edited under a link');
    } finally {
      await viewer.close();
      rmSync(link, { force: true });
      sample.cleanup();
    }
  });
});
