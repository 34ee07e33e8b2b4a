import { validateTask } from '../check/validate-task.js';
import { validateUnitTask } from '../check/validate-unit.js';
import { viewDocumentsTask } from '../view/index-cache-prefetch.js';
import type { PoolTask } from './pool.js';

/**
 * The tasks a worker thread can run, by name (the worker script imports this table; the main thread passes the
 * task object itself to `poolMap`). Register a new task here.
 */
// biome-ignore lint/suspicious/noExplicitAny: a table of tasks of different input and output types
export const poolTasks: Record<string, PoolTask<any, unknown>['start']> = {
  [validateTask.name]: (input) => validateTask.start({ ...input, sendable: true }),
  [validateUnitTask.name]: (input) => validateUnitTask.start({ ...input, sendable: true }),
  [viewDocumentsTask.name]: (input) => viewDocumentsTask.start(input),
};
