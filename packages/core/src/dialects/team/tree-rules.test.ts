import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../findings/finding.js';
import type { CheckedDocument } from '../dialect.js';
import type { TeamRunFiles } from './load.js';
import { teamRunModel } from './model.js';
import { runFindings, unitRunFindings } from './tree-rules.js';

const DIR = '/p/.team/runs/20261028T131016577943Z-20fe61';

const doc = (path: string, kind: string, value: unknown, findings: Finding[] = []): CheckedDocument => ({
  path,
  file: path.slice(3),
  kind,
  text: undefined,
  value,
  usable: true,
  sourceMap: undefined,
  findings,
});

/** An event that is not fit for state: a schema error. */
const schemaError = (file: string): Finding => ({
  code: 'schema/type',
  severity: 'error',
  message: 'x',
  file,
  pointer: '/stage',
  line: 1,
  column: 1,
});

const eventArb = fc.record({
  task: fc.constantFrom('a', 'b', 'c'),
  started: fc.boolean(),
  attempt: fc.constantFrom(1, 1, 1, 2, 3, 0, 1.5),
  status: fc.constantFrom('running', 'completed', 'failed', 'interrupted', 'awaiting_approval', 'weird'),
  // Few times, so that ties (broken by file name) are common.
  at: fc.constantFrom('2026-10-28T13:11:00Z', '2026-10-28T13:12:00Z', '2026-10-28T13:13:00Z'),
  retryOf: fc.option(fc.constantFrom(1, 2, 5), { nil: undefined }),
  unfit: fc.boolean(),
  // Where the file name sorts: events come in name order.
  order: fc.nat(1000),
});

const approvalArb = fc.record({
  stage: fc.constantFrom('design', 'build'),
  artifact: fc.constantFrom('a.md', 'b.md', 'gone.md'),
  good: fc.boolean(),
  at: fc.constantFrom('2026-10-28T13:11:00Z', '2026-10-28T13:12:00Z'),
  order: fc.nat(1000),
});

type GenEvent = typeof eventArb extends fc.Arbitrary<infer T> ? T : never;
type GenApproval = typeof approvalArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * A run's files from generated events and approvals. An event the schema or the event rules would reject (a
 * finished event still running, an unknown status, an attempt below one or not whole) is made unfit, as
 * `validate` makes it.
 */
function runFiles(events: GenEvent[], approvals: GenApproval[], withRunJson: boolean): TeamRunFiles {
  const eventDocs = events
    .map((e, i) => {
      const event = e.started ? 'task_started' : 'task_finished';
      const name = `${String(e.order).padStart(4, '0')}-${String(i).padStart(3, '0')}-${event}-${e.task}-a${e.attempt}-tok1.json`;
      const path = `${DIR}/events/${name}`;
      const value: Record<string, unknown> = {
        event,
        at: e.at,
        task_id: e.task,
        attempt: e.attempt,
        status: e.status,
      };
      if (e.retryOf !== undefined) value.retry_of = e.retryOf;
      const rejected =
        (!e.started && (e.status === 'running' || e.status === 'weird')) ||
        e.status === 'weird' ||
        !Number.isInteger(e.attempt) ||
        e.attempt < 1;
      return doc(path, 'team/task-event', value, e.unfit || rejected ? [schemaError(path.slice(3))] : []);
    })
    .sort((x, y) => (x.path < y.path ? -1 : 1));
  const approvalDocs = approvals
    .map((a, i) => {
      const path = `${DIR}/approvals/${String(a.order).padStart(4, '0')}-${String(i).padStart(3, '0')}-${a.stage}-tok1.json`;
      return doc(path, 'team/approval', {
        stage: a.stage,
        artifact: a.artifact,
        sha256: a.good ? `sha-${a.artifact}` : 'other',
        approved_at: a.at,
      });
    })
    .sort((x, y) => (x.path < y.path ? -1 : 1));
  return {
    id: '20261028T131016577943Z-20fe61',
    dir: DIR,
    run: withRunJson ? doc(`${DIR}/run.json`, 'team/run', { run_id: 'x' }) : undefined,
    events: eventDocs,
    approvals: approvalDocs,
    tempFiles: [],
  };
}

const hashOf = (rel: string) => (rel === 'gone.md' ? undefined : `sha-${rel}`);
const display = (abs: string) => abs.slice(3);
/** Findings in a canonical order: `validate` sorts each file's findings (stably) and the files. */
const canonical = (findings: Finding[]) =>
  findings.map((f) => JSON.stringify(f)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
/** Each file's findings in the order they were found (what `validate`'s stable sort keeps among equals). */
const perFile = (findings: Finding[]) => {
  const by = new Map<string, string[]>();
  for (const f of findings) by.set(f.file, [...(by.get(f.file) ?? []), JSON.stringify(f)]);
  return [...by].sort((a, b) => (a[0] < b[0] ? -1 : 1));
};

describe('unitRunFindings', () => {
  it("finds what runFindings finds on the run's model, each file's in the same order", () => {
    fc.assert(
      fc.property(
        fc.array(eventArb, { maxLength: 14 }),
        fc.array(approvalArb, { maxLength: 4 }),
        fc.boolean(),
        (events, approvals, withRunJson) => {
          const files = runFiles(events, approvals, withRunJson);
          const expected = runFindings(teamRunModel(files, hashOf), display, false);
          const actual = unitRunFindings(files, hashOf, display);
          expect(canonical(actual)).toEqual(canonical(expected));
          expect(perFile(actual)).toEqual(perFile(expected));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
