import type { CheckedDocument } from '../dialect.js';
import { groupByTask, keepTask, type TeamTask, taskOf } from './model.js';
import { eventRecord, keepEventRecord, type TeamEventRecord } from './records.js';
import { keepTaskView, type TaskView, taskView } from './view.js';

/**
 * What a pool thread derives from the event documents of one task (grouped by the task id their file names
 * carry, view/index-cache-prefetch.ts), with the functions the loader itself uses: each document's event record,
 * and the task and unit view of the records' task. The receiving thread keeps them by identity (`adoptTaskGroup`)
 * so that deriving the run finds them instead of deriving them again. A name that lies about its task only costs
 * time: the run groups events by the task id in their bodies, and a task whose events are not exactly those of
 * one group is derived again there.
 */
export interface TaskGroupFold {
  /** Per document, in the order given: its event record, null when it is not fit for state. */
  readonly records: readonly (TeamEventRecord | null)[];
  /** The tasks of the fit records (one when the names tell the truth), each with its events in the order given. */
  readonly tasks: readonly {
    readonly events: readonly TeamEventRecord[];
    readonly task: TeamTask;
    readonly view: TaskView;
  }[];
}

/** Derives one group's records, tasks and unit views (`docs`: the group's documents, in listing order). */
export function foldTaskGroup(docs: readonly CheckedDocument[]): TaskGroupFold {
  const records: (TeamEventRecord | null)[] = [];
  const fit: TeamEventRecord[] = [];
  for (const d of docs) {
    const r = eventRecord(d) ?? null;
    records.push(r);
    if (r) fit.push(r);
  }
  const tasks: TaskGroupFold['tasks'][number][] = [];
  for (const [id, events] of groupByTask(fit)) {
    const task = taskOf(id, events);
    tasks.push({ events, task, view: taskView(task) });
  }
  return { records, tasks };
}

/**
 * Keeps a group's fold, received from another thread, for `docs`: the documents this thread keeps for the same
 * files, in the same order. Each record is made to point at its document here (a record sent from another thread
 * carries a copy), then records, tasks and views are kept by identity for the loader (records.ts, model.ts,
 * view.ts).
 */
export function adoptTaskGroup(docs: readonly CheckedDocument[], fold: TaskGroupFold): void {
  fold.records.forEach((r, i) => {
    const doc = docs[i]!;
    if (r) (r as { doc: CheckedDocument }).doc = doc;
    keepEventRecord(doc, r);
  });
  for (const t of fold.tasks) {
    keepTask(t.events, t.task);
    keepTaskView(t.task, t.view);
  }
}

/** A record as sent between threads: without its document (the receiver has its own, `taskGroupFromWire`). */
type WireRecord = Omit<TeamEventRecord, 'doc'>;

/**
 * A group's fold as sent between threads: plain JSON-able data (a JSON text is far cheaper to copy and parse than
 * the object graph is to clone), the records once each, and the tasks' events and attempts by record index.
 */
export interface TaskGroupWire {
  readonly records: readonly (WireRecord | null)[];
  readonly tasks: readonly {
    readonly id: string;
    readonly stage: string;
    readonly agent: string;
    readonly attempts: readonly {
      readonly attempt: number;
      readonly status: TeamTask['latest']['status'];
      readonly started: readonly number[];
      readonly terminals: readonly number[];
    }[];
    /** The index of the latest attempt. */
    readonly latest: number;
    readonly events: readonly number[];
    readonly view: TaskView;
  }[];
}

/** The fold as sent (`TaskGroupWire`). */
export function taskGroupWire(fold: TaskGroupFold): TaskGroupWire {
  const index = new Map<TeamEventRecord, number>();
  const records = fold.records.map((r, i) => {
    if (!r) return null;
    index.set(r, i);
    const { doc: _doc, ...rest } = r;
    return rest;
  });
  const at = (r: TeamEventRecord) => index.get(r)!;
  return {
    records,
    tasks: fold.tasks.map(({ events, task, view }) => ({
      id: task.id,
      stage: task.stage,
      agent: task.agent,
      attempts: task.attempts.map((a) => ({
        attempt: a.attempt,
        status: a.status,
        started: a.started.map(at),
        terminals: a.terminals.map(at),
      })),
      latest: task.attempts.indexOf(task.latest),
      events: events.map(at),
      view,
    })),
  };
}

/** The fold a `TaskGroupWire` was made from, its records pointing at `docs` (this thread's, in the same order). */
export function taskGroupFromWire(wire: TaskGroupWire, docs: readonly CheckedDocument[]): TaskGroupFold {
  // The parsed records become the records (their document added last: no copy of each).
  const records = wire.records.map((r, i) => {
    if (r) (r as { doc?: CheckedDocument }).doc = docs[i]!;
    return r as TeamEventRecord | null;
  });
  const rec = (i: number) => records[i]!;
  return {
    records,
    tasks: wire.tasks.map((w) => {
      const attempts = w.attempts.map((a) => ({
        attempt: a.attempt,
        status: a.status,
        started: a.started.map(rec),
        terminals: a.terminals.map(rec),
      }));
      const task: TeamTask = {
        id: w.id,
        stage: w.stage,
        agent: w.agent,
        attempts,
        latest: attempts[w.latest]!,
      };
      return { events: w.events.map(rec), task, view: w.view };
    }),
  };
}
