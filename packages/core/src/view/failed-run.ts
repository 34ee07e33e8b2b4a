import type { Dialect } from '../dialects/dialect.js';
import type { RunFacts } from './run-view.js';

/** The one run shown for a root that could not be loaded: its finding (code and message) says why. */
export function failedRootView(
  d: Pick<Dialect, 'id'>,
  rootDisplay: string,
  code: string,
  message: string,
): RunFacts {
  return {
    id: rootDisplay,
    dialect: d.id,
    title: rootDisplay,
    status: 'unreadable',
    tone: 'error',
    root: rootDisplay,
    sources: [],
    phases: [],
    units: [],
    approvals: [],
    counts: {},
    progress: { done: 0, total: 0 },
    findings: [
      {
        code,
        severity: 'error',
        message,
        file: rootDisplay,
        pointer: '',
        line: 1,
        column: 1,
      },
    ],
    resume: {
      summary: 'unknown: the run could not be loaded',
      skip: [],
      runNext: [],
      blocked: [],
      needsPerson: [{ id: rootDisplay, reason: message }],
      notes: [],
    },
    details: [],
  };
}
