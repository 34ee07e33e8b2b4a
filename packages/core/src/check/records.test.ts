import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDocument } from './check-document.js';
import { documentOf, RereadSourceMap, sentRecordOf, withRef } from './records.js';

const dir = mkdtempSync(join(tmpdir(), 'ckpt-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const event = {
  event: 'task_finished',
  at: '2026-10-28T13:20:00Z',
  run_id: '20261028T131016577943Z-20fe61',
  task_id: 'build-fe-20261028T1300Z',
  stage: 'build',
  agent: 'fe',
  attempt: 1,
  status: 'completed',
  session: 'ses_5c1e9b4d7ffeHk2sPq9wLx1CaV',
  parent_session: 'ses_5c1e93a0bffeW2nqK8dTz4LpXh',
  inputs: ['.team/06-architecture.md'],
  artifacts: ['.team/07-build-fe.md'],
  evidence: 'unit tests: 3 pass',
  next: 'wait for be',
};

describe('validate records', () => {
  it('should keep of a team event only what the run rules read, and no text', () => {
    const events = join(dir, '.team', 'runs', '20261028T131016577943Z-20fe61', 'events');
    const path = join(events, '20261028T132000818772Z-task_finished-build-fe-20261028T1300Z-a1-3b6cba.json');
    mkdirSync(events, { recursive: true });
    writeFileSync(path, `${JSON.stringify(event, null, 2)}\n`);
    const doc = checkDocument(path, 'event.json')!;
    expect(doc.kind).toBe('team/task-event');
    const sent = sentRecordOf(doc, 'json');
    expect(sent.text).toBeUndefined();
    expect(Object.keys(sent)).not.toContain('whole');
    expect(Object.keys(sent)).not.toContain('path');
    expect(Object.keys(sent.value as object).sort()).toEqual(['at', 'attempt', 'event', 'status', 'task_id']);
    expect(sent.findings).toEqual(doc.findings);
    // Sent to the main thread by structured clone: nothing in it is lost.
    expect(structuredClone(sent)).toEqual(sent);
    const rec = withRef(structuredClone(sent), { path, file: 'event.json' });
    expect(rec.path).toBe(path);
    // A finding is still placed where the per-file pass would place it.
    expect(documentOf(rec).sourceMap!.locate('/status')).toEqual(doc.sourceMap!.locate('/status'));
  });

  it('should read the file for positions only when one is asked for', () => {
    const path = join(dir, 'late.json');
    const map = new RereadSourceMap(path, 'late.json', 'json', undefined);
    // The file does not exist yet: the map has not read anything.
    writeFileSync(path, '{\n  "a": 1,\n  "b": 2\n}\n');
    expect(map.locate('/b')).toMatchObject({ line: 3, column: 8 });
  });

  it('should place at line 1 a finding of a file that is gone', () => {
    const map = new RereadSourceMap(join(dir, 'missing.json'), 'missing.json', 'json', undefined);
    expect(map.locate('/a')).toEqual({ line: 1, column: 1 });
  });
});
