import type { CheckedDocument } from '../dialect.js';
import { isOrchestratorPhase, ORCHESTRATOR_STATE_V1, type OrchestratorPhase } from './constants.js';
import { obj, strings } from './doc-util.js';
import type { AgentContextIterationFiles } from './load.js';
import { type ResumePoint, resumeFrom } from './phases.js';

/** A task state as status shows it. */
export interface AgentContextTaskSummary {
  readonly taskId: string;
  readonly file: string;
  readonly task: string;
  readonly state: string;
  readonly previousState?: string;
  readonly phase?: string;
  readonly revision: number;
  readonly legacy: boolean;
  readonly updatedAt?: string;
  readonly nextAction?: { type: string; blocking: boolean; reason: string; command?: string };
  readonly allowedActions: readonly string[];
  readonly satisfiedEvidence: readonly string[];
  readonly missingEvidence: readonly string[];
  readonly usable: boolean;
}

/** One persisted iteration as status shows it. */
export interface AgentContextIterationSummary {
  readonly iteration: number;
  readonly decision?: string;
  readonly blocking?: boolean;
  readonly reason?: string;
  readonly convergence?: string;
  readonly stopReason?: string;
  readonly fingerprint?: string;
  readonly exitCode?: number | null;
  readonly contextRefresh?: string;
  readonly generatedAt?: string;
}

/** An orchestrator run as status shows it. */
export interface AgentContextRunSummary {
  readonly runId: string;
  readonly file: string;
  /** False for a state whose schemaVersion is not v1 (not interpreted) or that does not parse. */
  readonly supported: boolean;
  readonly schemaVersion: unknown;
  readonly task?: string;
  readonly repo?: string;
  readonly revision?: number;
  readonly phase?: OrchestratorPhase;
  readonly iteration?: number;
  readonly latestDecision?: { action: string; blocking: boolean; reasons: readonly string[] };
  readonly convergence?: { status: string; stopReason?: string; shouldStop: boolean; fingerprint?: string };
  readonly resume?: ResumePoint;
  readonly createdAt?: string;
  readonly updatedAt?: string;
  readonly completedAt?: string;
  readonly iterations: readonly AgentContextIterationSummary[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function summarizeTask(id: string, doc: CheckedDocument): AgentContextTaskSummary {
  const v = doc.usable ? (obj(doc.value) ?? {}) : {};
  const next = obj(v.nextAction);
  return {
    taskId: str(v.taskId) ?? id,
    file: doc.file,
    task: str(v.task) ?? id,
    state: doc.usable ? (str(v.state) ?? 'unknown') : 'unreadable',
    ...(str(v.previousState) ? { previousState: str(v.previousState)! } : {}),
    ...(str(v.phase) ? { phase: str(v.phase)! } : {}),
    revision: typeof v.revision === 'number' ? v.revision : 0,
    legacy: v.schemaVersion === undefined,
    ...(str(v.updatedAt) ? { updatedAt: str(v.updatedAt)! } : {}),
    ...(next && typeof next.type === 'string'
      ? {
          nextAction: {
            type: next.type,
            blocking: next.blocking === true,
            reason: str(next.reason) ?? '',
            ...(str(next.command) ? { command: str(next.command)! } : {}),
          },
        }
      : {}),
    allowedActions: strings(v.allowedActions) ?? [],
    satisfiedEvidence: strings(v.satisfiedEvidence) ?? [],
    missingEvidence: strings(v.missingEvidence) ?? [],
    usable: doc.usable,
  };
}

export function summarizeIteration(it: AgentContextIterationFiles): AgentContextIterationSummary {
  const i = it.iteration?.usable ? obj(it.iteration.value) : undefined;
  const d = it.decision?.usable ? obj(it.decision.value) : undefined;
  const conv = obj(d?.convergence) ?? obj(i?.convergence);
  const decision = obj(d?.decision);
  const summary = obj(i?.summary);
  const exit = obj(d?.inputs)?.executorExitCode ?? summary?.exitCode;
  const reasons = strings(decision?.reasons);
  return {
    iteration: it.number,
    ...((str(decision?.action) ?? str(summary?.decision))
      ? { decision: (str(decision?.action) ?? str(summary?.decision))! }
      : {}),
    ...(typeof decision?.blocking === 'boolean' ? { blocking: decision.blocking } : {}),
    ...(reasons?.[0] ? { reason: reasons[0] } : {}),
    ...(str(conv?.status) ? { convergence: str(conv?.status)! } : {}),
    ...(str(conv?.stopReason) ? { stopReason: str(conv?.stopReason)! } : {}),
    ...(str(obj(conv?.fingerprint)?.value) ? { fingerprint: str(obj(conv?.fingerprint)?.value)! } : {}),
    ...(typeof exit === 'number' || exit === null ? { exitCode: exit } : {}),
    ...(str(obj(summary?.contextRefresh)?.mode)
      ? { contextRefresh: str(obj(summary?.contextRefresh)?.mode)! }
      : {}),
    ...(str(d?.generatedAt ?? i?.generatedAt) ? { generatedAt: str(d?.generatedAt ?? i?.generatedAt)! } : {}),
  };
}

/**
 * The iteration written last: the newest `generatedAt`, else the highest number. A rerun of a task without an
 * orchestrator state (opencode-plusplus 0.1.1) numbers its iterations from 001 again and leaves the higher-numbered
 * ones of the earlier run in place, so the highest number is not always the latest.
 */
export function latestIteration(
  its: readonly AgentContextIterationSummary[],
): AgentContextIterationSummary | undefined {
  let best: AgentContextIterationSummary | undefined;
  for (const it of its) {
    if (!best) best = it;
    else {
      const a = it.generatedAt ?? '';
      const b = best.generatedAt ?? '';
      if (a > b || (a === b && it.iteration > best.iteration)) best = it;
    }
  }
  return best;
}

export function summarizeRun(
  id: string,
  doc: CheckedDocument | undefined,
  iterations: readonly AgentContextIterationFiles[],
): AgentContextRunSummary {
  const v = doc?.usable ? obj(doc.value) : undefined;
  const supported = !!v && v.schemaVersion === ORCHESTRATOR_STATE_V1;
  const its = iterations.filter((x) => x.iteration || x.decision).map(summarizeIteration);
  const base = {
    runId: id,
    file: doc?.file ?? '',
    supported,
    schemaVersion: v?.schemaVersion,
    iterations: its,
  };
  if (!supported || !v) return base;
  const phase = str(v.currentPhase)?.toLowerCase();
  const keys = strings(v.completedPhases) ?? [];
  const iteration = typeof v.currentIteration === 'number' ? v.currentIteration : undefined;
  const d = obj(v.latestDecision);
  const c = obj(v.convergence);
  return {
    ...base,
    ...(str(v.task) ? { task: str(v.task)! } : {}),
    ...(str(v.repo) ? { repo: str(v.repo)! } : {}),
    ...(typeof v.revision === 'number' ? { revision: v.revision } : {}),
    ...(isOrchestratorPhase(phase) ? { phase } : {}),
    ...(iteration !== undefined ? { iteration } : {}),
    ...(d && typeof d.action === 'string'
      ? {
          latestDecision: {
            action: d.action,
            blocking: d.blocking === true,
            reasons: strings(d.reasons) ?? [],
          },
        }
      : {}),
    ...(c && typeof c.status === 'string'
      ? {
          convergence: {
            status: c.status,
            shouldStop: c.shouldStop === true,
            ...(str(c.stopReason) ? { stopReason: str(c.stopReason)! } : {}),
            ...(str(obj(c.fingerprint)?.value) ? { fingerprint: str(obj(c.fingerprint)?.value)! } : {}),
          },
        }
      : {}),
    ...(isOrchestratorPhase(phase) && iteration !== undefined
      ? {
          resume: resumeFrom({
            currentPhase: phase,
            currentIteration: iteration,
            completedPhases: keys,
            convergence: c ? { shouldStop: c.shouldStop === true } : undefined,
          }),
        }
      : {}),
    ...(str(v.createdAt) ? { createdAt: str(v.createdAt)! } : {}),
    ...(str(v.updatedAt) ? { updatedAt: str(v.updatedAt)! } : {}),
    ...(str(v.completedAt) ? { completedAt: str(v.completedAt)! } : {}),
  };
}
