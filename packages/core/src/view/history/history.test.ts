import { readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProject } from '../load-project.js';
import type { RunView } from '../run-view.js';
import type { HistoryEntry } from './entry.js';
import { runHistory, sortHistory } from './history.js';
import { projectReader } from './read.js';
import { runTimeline } from './timeline.js';

const sample = resolve(import.meta.dirname, '../../../../../test-fixtures/sample-project');
const read = projectReader(sample);
const runs = loadProject(sample);
const run = (id: string) => runs.find((r) => r.id === id)!;
const lineOf = (e: HistoryEntry) => readFileSync(join(sample, e.file), 'utf8').split('\n')[e.line - 1] ?? '';
const brief = (es: readonly HistoryEntry[]) => es.map((e) => [e.kind, e.at, e.line]);

describe('runHistory (team)', () => {
  const r = run('20261128T140312558021Z-a41c7f');
  const task = 'build-be-20261128T1404Z';

  it('should list a task attempt by attempt, oldest first, each at the line of its `at`', () => {
    const h = runHistory(r, read, { unit: task });
    expect(h.unit).toBe(task);
    expect(brief(h.entries)).toEqual([
      ['started', '2026-11-28T14:05:31Z', 3],
      ['failed', '2026-11-28T14:22:09Z', 3],
      ['retried', '2026-11-28T14:45:37Z', 3],
    ]);
    expect(h.entries[1]!.text).toBe('attempt 1 interrupted: OpenCode restarted during the orders migration');
    expect(h.entries[2]!.text).toContain('retry of #1: migration 0007 verified as not applied');
    for (const e of h.entries) expect(lineOf(e)).toContain(`"at": "${e.at}"`);
  });

  it('should filter by kind and still count every kind', () => {
    const h = runHistory(r, read, { unit: task, kinds: ['retried'] });
    expect(h.entries.map((e) => e.kind)).toEqual(['retried']);
    expect(h.kinds).toEqual({ started: 1, failed: 1, retried: 1 });
  });

  it('should put an approval on the tasks of its stage and a stale approval finding at its time', () => {
    const h = runHistory(r, read, { unit: 'build-docs-20261128T1404Z' });
    const approved = h.entries.find((e) => e.kind === 'approved')!;
    expect(approved.text).toContain('gate build approved by samet');
    expect(lineOf(approved)).toContain('"approved_at"');
    expect(h.entries.find((e) => e.kind === 'finding')).toMatchObject({ at: '2026-11-28T15:20:02Z' });
  });
});

describe('runHistory (ulpi)', () => {
  it('should replay the event log: every transition of a unit at its line', () => {
    const h = runHistory(run('add-oauth-20261129T071300Z'), read, { unit: 'oauth-config' });
    expect(brief(h.entries)).toEqual([
      ['created', '2026-11-29T07:13:00Z', 1],
      ['started', '2026-11-29T07:20:11Z', 9],
      ['finished', '2026-11-29T07:31:40Z', 10],
    ]);
    expect(h.entries[2]!.text).toBe('in_progress → done: client ids stored in vault');
    expect(h.entries.every((e) => e.file.endsWith('.events.jsonl'))).toBe(true);
    expect(lineOf(h.entries[1]!)).toContain('"in_progress"');
  });

  it('should give an unknown dependency finding to its unit, after the timed entries', () => {
    const h = runHistory(run('add-oauth-20261129T071300Z'), read, { unit: 'e2e-tests' });
    expect(h.entries.at(-1)).toMatchObject({ kind: 'finding' });
    expect(h.entries.at(-1)!.at).toBeUndefined();
    expect(h.entries.at(-1)!.text).toContain('ulpi/unknown-dependency');
  });

  it('should read the snapshot timestamps of a run without an event log', () => {
    const h = runHistory(run('run-2026-11-27-152204Z'), read, { unit: 'extract-payments' });
    expect(h.entries.map((e) => e.kind)).toEqual(['created', 'started', 'blocked', 'finding']);
    expect(lineOf(h.entries[1]!)).toContain('"startedAt"');
    expect(lineOf(h.entries[2]!)).toContain('"finishedAt"');
    expect(h.entries[3]!.text).toContain('card token storage needs PCI sign-off');
  });
});

describe('runHistory (resumable, agent-context)', () => {
  it('should give each run.log line to the stage it names, classified', () => {
    const r = run('hotfix-login-throttle-20261129T071500Z');
    const h = runHistory(r, read, { unit: 'S1' });
    expect(brief(h.entries)).toEqual([
      ['check', '2026-11-29T07:15:40Z', 3],
      ['check', '2026-11-29T07:15:41Z', 4],
      ['finished', '2026-11-29T07:15:45Z', 5],
    ]);
    const all = runHistory(r, read);
    expect(all.entries.filter((e) => e.kind === 'lock').map((e) => e.units)).toEqual([[], []]);
    expect(all.entries[0]).toMatchObject({ kind: 'started', line: 1 });
  });

  it('should list iterations and decisions in time order', () => {
    const h = runHistory(run('add-rate-limit-to-orders-api'), read);
    expect(h.entries.map((e) => e.kind)).toEqual([
      'created',
      'iteration',
      'decision',
      'iteration',
      'decision',
      'finished',
      'phase',
      'finished',
    ]);
    expect(h.entries[4]!.text).toBe(
      'iteration 2 decided finalize: All required evidence is satisfied and no gate blocks.',
    );
    expect(lineOf(h.entries[4]!)).toContain('"action": "finalize"');
  });

  it('should only ever point at a source file of the run, at a line it has', () => {
    for (const r of runs) {
      const files = new Set(r.sources.map((s) => s.path));
      for (const e of runHistory(r, read).entries) {
        expect(files.has(e.file), `${r.id}: ${e.file}`).toBe(true);
        expect(e.line).toBeLessThanOrEqual(readFileSync(join(sample, e.file), 'utf8').split('\n').length);
        expect(e.text).not.toMatch(/\n/);
      }
    }
  });
});

describe('runHistory (secrets)', () => {
  const line = '[2026-11-29T07:15:02Z] S1 deploy with password=hunter2-very-secret\n';
  const t = tmpTree({
    'reports/leak-20261129T071500Z/state.env':
      'RUN_ID="20261129T071500Z"\nTASK_NAME="leak"\nCURRENT_STAGE="S1"\nS1_DONE="0"\n',
    'reports/leak-20261129T071500Z/checklist.state.env': 'CB_S1_A="0"\n',
    'reports/leak-20261129T071500Z/run.log': line,
  });
  afterAll(() => t.cleanup());
  it('should mask secret-looking text unless asked to show it', () => {
    const r = loadProject(t.dir).find((x) => x.dialect === 'resumable')!;
    const hidden = runHistory(r, projectReader(t.dir)).entries.find((e) => e.line === 1)!;
    expect(hidden.text).not.toContain('hunter2');
    const shown = runHistory(r, projectReader(t.dir), { showSecrets: true }).entries.find(
      (e) => e.line === 1,
    )!;
    expect(shown.text).toContain('password=hunter2');
  });
});

describe('sortHistory', () => {
  it('should order by time, keep ties in file order and put untimed entries last', () => {
    const e = (at: string | undefined, line: number): HistoryEntry => ({
      ...(at ? { at } : {}),
      kind: 'log',
      units: [],
      text: '',
      file: 'f',
      line,
    });
    const sorted = sortHistory([
      e(undefined, 1),
      e('2026-01-02T00:00:00Z', 2),
      e('2026-01-01T00:00:00.5Z', 3),
      e('2026-01-02T00:00:00Z', 4),
    ]);
    expect(sorted.map((x) => x.line)).toEqual([3, 2, 4, 1]);
  });
});

describe('projectReader', () => {
  const t = tmpTree({ 'p/a.txt': 'inside', 'secret.txt': 'outside' });
  afterAll(() => t.cleanup());
  it('should read files inside the project and refuse a symlink leading out', () => {
    symlinkSync(t.path('secret.txt'), t.path('p/link.txt'));
    const r = projectReader(t.path('p'));
    expect(r('a.txt')).toBe('inside');
    expect(r('link.txt')).toBeUndefined();
    expect(r('../secret.txt')).toBeUndefined();
    expect(r(t.path('secret.txt'))).toBeUndefined();
  });
});

describe('runTimeline', () => {
  it('should draw resumable stages from their history and leave units without work unbarred', () => {
    const t = runTimeline(run('rotate-api-keys-20261128T143000Z'), read);
    expect(t.fromHistory).toBe(2);
    expect(t.rows.map((r) => r.bars.length)).toEqual([1, 1, 0, 0]);
    const u = runTimeline(run('add-oauth-20261129T071300Z'), read);
    expect(u.rows.filter((r) => r.kind === 'unit').map((r) => [r.id, r.bars.length])).toEqual([
      ['oauth-config', 1],
      ['callback-route', 1],
      ['session-store', 1],
      ['login-ui', 0],
      ['e2e-tests', 0],
    ]);
  });

  it('should bar each agent-context iteration from the end of the one before (the run start for the first)', () => {
    const r = run('add-rate-limit-to-orders-api');
    const t = runTimeline(r, read);
    expect(t.rows.filter((x) => x.kind === 'unit').map((x) => x.bars.map((b) => [b[0], b[1]]))).toEqual([
      [
        [Date.parse(r.createdAt!), Date.parse('2026-11-27T15:43:39.370Z')],
        [Date.parse('2026-11-27T15:43:39.370Z'), Date.parse('2026-11-27T15:47:08.603Z')],
      ],
    ]);
  });

  it('should bar each attempt of a team task', () => {
    const r: RunView = run('20261128T140312558021Z-a41c7f');
    const t = runTimeline(r);
    const be = t.rows.find((x) => x.id === 'build-be-20261128T1404Z')!;
    expect(be.bars.map((b) => b[2])).toEqual(['warning', 'active']);
    expect(be.bars[1]![1]).toBeNull();
    expect(t.lo).toBe(Date.parse('2026-11-28T14:05:03Z'));
  });
});
