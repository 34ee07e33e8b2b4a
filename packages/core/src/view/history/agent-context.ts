import { parseJson } from '../../parse/json.js';
import { valueText } from '../../text/value-text.js';
import type { RunView } from '../run-view.js';
import { entry, findingEntry, type HistoryEntry, type ReadSource } from './entry.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const s = (v: unknown, k: string) =>
  isObj(v) && typeof v[k] === 'string' && v[k] !== '' ? (v[k] as string) : undefined;

function load(read: ReadSource, file: string) {
  const text = read(file);
  if (text === undefined) return undefined;
  const p = parseJson(text, file);
  return p.ok && isObj(p.value)
    ? { v: p.value, line: (ptr: string) => p.sourceMap.locate(ptr).line }
    : undefined;
}

/**
 * An agent-context run's history: the orchestrator's creation, current phase and completion; every iteration and
 * decision it persisted (at their `generatedAt`); the task state's last transition; the findings of each file.
 */
export function agentContextHistory(run: RunView, read: ReadSource): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  const task = run.units[0]?.id;
  const mine = task ? [task] : [];
  const timeOf = new Map<string, string>();
  for (const src of run.sources) {
    const d = load(read, src.path);
    if (!d) continue;
    const { v, line } = d;
    const f = src.path;
    if (src.kind === 'agent-context/orchestrator-state') {
      if (s(v, 'createdAt'))
        out.push(
          entry(
            'created',
            s(v, 'createdAt'),
            [],
            `run created: ${s(v, 'task') ?? s(v, 'runId') ?? ''}`,
            f,
            line('/createdAt'),
          ),
        );
      const done = Array.isArray(v.completedPhases) ? v.completedPhases.length : 0;
      if (s(v, 'updatedAt') && s(v, 'updatedAt') !== s(v, 'completedAt'))
        out.push(
          entry(
            'phase',
            s(v, 'updatedAt'),
            [],
            `at phase ${s(v, 'currentPhase') ?? '?'} of iteration ${valueText(v.currentIteration ?? '?')} (revision ${valueText(v.revision ?? '?')}, ${done} phases completed)`,
            f,
            line('/currentPhase'),
          ),
        );
      if (s(v, 'completedAt'))
        out.push(
          entry(
            'finished',
            s(v, 'completedAt'),
            [],
            `run completed after ${done} phases`,
            f,
            line('/completedAt'),
          ),
        );
    } else if (src.kind === 'agent-context/task-state') {
      const state = s(v, 'state') ?? '?';
      const kind = state === 'BLOCKED' ? 'blocked' : state === 'READY_FOR_REVIEW' ? 'finished' : 'updated';
      const why = s(v, 'transitionReason');
      out.push(
        entry(
          kind,
          s(v, 'updatedAt'),
          mine,
          `${s(v, 'previousState') ? `${s(v, 'previousState')} → ` : ''}${state} after ${s(v, 'lastAction') ?? '?'}${why ? `: ${why}` : ''}`,
          f,
          line('/state'),
        ),
      );
    } else if (src.kind === 'agent-context/iteration') {
      const conv = isObj(v.convergence) ? s(v.convergence, 'status') : undefined;
      out.push(
        entry(
          'iteration',
          s(v, 'generatedAt'),
          mine,
          `iteration ${valueText(v.iteration ?? '?')} persisted${conv ? ` (convergence ${conv})` : ''}`,
          f,
          line('/generatedAt'),
        ),
      );
    } else if (src.kind === 'agent-context/decision') {
      const dec = isObj(v.decision) ? v.decision : {};
      const reasons = Array.isArray(dec.reasons) ? dec.reasons.filter((x) => typeof x === 'string') : [];
      out.push(
        entry(
          'decision',
          s(v, 'generatedAt'),
          mine,
          `iteration ${valueText(v.iteration ?? '?')} decided ${s(dec, 'action') ?? '?'}${dec.blocking === true ? ' (blocking)' : ''}${reasons[0] ? `: ${reasons[0]}` : ''}`,
          f,
          line('/decision/action'),
        ),
      );
    }
    const at = s(v, 'generatedAt') ?? s(v, 'updatedAt');
    if (at) timeOf.set(f, at);
  }
  const orch = run.sources.find((x) => x.kind === 'agent-context/orchestrator-state')?.path;
  for (const fd of run.findings)
    out.push(findingEntry(fd, fd.file === orch ? [] : mine, timeOf.get(fd.file)));
  return out;
}
