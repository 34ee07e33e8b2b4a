import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDocument } from '../../check/check-document.js';
import type { CheckedDocument } from '../dialect.js';
import { adoptTaskGroup, foldTaskGroup, taskGroupFromWire, taskGroupWire } from './fold.js';
import { tasksOf } from './model.js';
import { eventRecord } from './records.js';
import { taskView } from './view.js';

const sample = resolve(import.meta.dirname, '../../../../../test-fixtures/sample-project');
const dirs: string[] = [];

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The sample's events, read and checked, with one task's first start written again (a duplicate start). */
function sampleEvents(): CheckedDocument[] {
  const dir = mkdtempSync(join(tmpdir(), 'ckpt-fold-'));
  dirs.push(dir);
  cpSync(sample, dir, { recursive: true });
  const runs = join(dir, '.team/runs');
  const run = readdirSync(runs).find((n) => n.startsWith('2026'))!;
  const events = join(runs, run, 'events');
  const first = readdirSync(events).sort()[0]!;
  writeFileSync(
    join(events, first.replace(/-[0-9a-f]{6}\.json$/, '-ffffff.json')),
    readFileSync(join(events, first)),
  );
  return readdirSync(events)
    .sort()
    .map((n) => checkDocument(join(events, n), `.team/runs/${run}/events/${n}`, { sniff: true })!);
}

/** The same documents as another thread's copies (what the receiving thread keeps for the same files). */
const copies = (docs: readonly CheckedDocument[]) => docs.map((d) => ({ ...d, value: undefined }));

describe('team task fold', () => {
  it('should derive what the loader derives: records, tasks and unit views of the documents', () => {
    const docs = sampleEvents();
    const fold = foldTaskGroup(docs);
    const records = docs.map((d) => eventRecord(d) ?? null);
    expect(fold.records).toEqual(records);
    const tasks = tasksOf(records.filter((r) => r !== null));
    expect(fold.tasks.map((t) => t.task)).toEqual(expect.arrayContaining(tasks));
    expect(fold.tasks.length).toBe(tasks.length);
    for (const t of fold.tasks) expect(t.view).toEqual(taskView(t.task));
  });

  it('should come back from its JSON text as the same fold, its records pointing at the receiver documents', () => {
    const docs = sampleEvents();
    const fold = foldTaskGroup(docs);
    const here = copies(docs);
    const back = taskGroupFromWire(JSON.parse(JSON.stringify(taskGroupWire(fold))), here);
    back.records.forEach((r, i) => {
      expect(r === null).toBe(fold.records[i] === null);
      if (r) expect(r.doc).toBe(here[i]);
    });
    const strip = (x: unknown) => JSON.parse(JSON.stringify(x, (k, v) => (k === 'doc' ? undefined : v)));
    expect(strip(back)).toEqual(strip(fold));
    // Attempts hold the records themselves (one object per event), the latest attempt is the last one.
    for (const { task, events } of back.tasks) {
      expect(task.latest).toBe(task.attempts.at(-1));
      for (const a of task.attempts)
        for (const e of [...a.started, ...a.terminals]) expect(back.records).toContain(e);
      for (const e of events) expect(back.records).toContain(e);
    }
  });

  it('should make the loader find the adopted records, tasks and views instead of deriving them again', () => {
    const docs = sampleEvents();
    const here = copies(docs);
    const fold = taskGroupFromWire(JSON.parse(JSON.stringify(taskGroupWire(foldTaskGroup(docs)))), here);
    adoptTaskGroup(here, fold);
    // The copies carry no value: a record read from them would be undefined (not fit for state).
    here.forEach((d, i) => expect(eventRecord(d) ?? null).toBe(fold.records[i]));
    const tasks = tasksOf(
      here.map((d) => eventRecord(d)).filter((r) => r !== undefined),
      true,
    );
    for (const t of fold.tasks) {
      expect(tasks).toContain(t.task);
      expect(taskView(t.task)).toBe(t.view);
    }
  });
});
