import { dirname, join, relative, sep } from 'node:path';
import { compareFindings, type Finding, findingAt } from '../../findings/finding.js';
import { OUTSIDE_REASON, outsideFolderFinding } from '../../fs/folder-link.js';
import { valueText } from '../../text/value-text.js';
import { failedRootView } from '../../view/failed-run.js';
import type { AttemptView, RunFacts, Tone, UnitView } from '../../view/run-view.js';
import type { CheckedDocument, TreeContext } from '../dialect.js';
import { agentContextCodes } from './codes.js';
import { type AgentContextTree, loadAgentContextTree } from './load.js';
import {
  type AgentContextIterationSummary,
  type AgentContextTaskSummary,
  latestIteration,
  summarizeRun,
  summarizeTask,
} from './model.js';
import { loopEndedWithoutState, phasesOf, resumePlan } from './resume-plan.js';
import { treeFindings } from './tree-rules.js';

const TASK_TONE: Record<string, Tone> = {
  READY_FOR_REVIEW: 'ok',
  BLOCKED: 'error',
  REPAIRING: 'warning',
  unreadable: 'error',
};
const CONVERGENCE_TONE: Record<string, Tone> = {
  progressing: 'active',
  terminal: 'ok',
  'repeated-state': 'warning',
  'max-loops-reached': 'warning',
  'executor-failure': 'error',
};

function attempt(it: AgentContextIterationSummary): AttemptView {
  return {
    attempt: it.iteration,
    status: it.convergence ?? 'persisted',
    tone: CONVERGENCE_TONE[it.convergence ?? ''] ?? 'neutral',
    ...(it.generatedAt ? { endedAt: it.generatedAt } : {}),
    ...(it.reason ? { reason: it.reason } : {}),
    ...(it.fingerprint ? { evidence: `fingerprint ${it.fingerprint.slice(0, 12)}` } : {}),
    ...(it.decision ? { next: `${it.decision}${it.blocking ? ' (blocking)' : ''}` } : {}),
  };
}

function taskUnit(t: AgentContextTaskSummary, its: readonly AgentContextIterationSummary[]): UnitView {
  return {
    id: t.taskId,
    status: t.state,
    tone: TASK_TONE[t.state] ?? 'active',
    ...(t.phase ? { stage: t.phase } : {}),
    dependsOn: [],
    ...(t.nextAction ? { note: t.nextAction.reason } : {}),
    ...(t.satisfiedEvidence.length > 0 ? { evidence: t.satisfiedEvidence.join(', ') } : {}),
    ...(t.nextAction
      ? { next: `${t.nextAction.type}${t.nextAction.command ? `: ${t.nextAction.command}` : ''}` }
      : {}),
    inputs: [],
    artifacts: [],
    ...(t.updatedAt ? { updatedAt: t.updatedAt } : {}),
    attempts: its.map(attempt),
    checks: [
      ...t.satisfiedEvidence.map((id) => ({ id, done: true })),
      ...t.missingEvidence.map((id) => ({ id, done: false })),
    ],
  };
}

/** The RunViews of one `.agent-context/` tree: one per orchestrator run, and one per task state without a run. */
export function loadAgentContextRunViews(root: string, ctx: TreeContext): RunFacts[] {
  const tree = loadAgentContextTree(root, ctx);
  const extra = treeFindings(tree);
  const ids = new Set([...tree.orchestrator.keys(), ...tree.tasks.keys()]);
  // A folder linked out of the project is one io/outside-project finding: on the run whose folder holds it (or is
  // it), else (runs/ or orchestrator/ itself, a run with nothing else) on a run standing for that folder.
  const outside = new Map<string, Finding[]>();
  const alone: RunFacts[] = [];
  for (const dir of tree.outside) {
    const file = ctx.display(dir);
    const id = /^(?:runs|orchestrator)\/([^/]+)/.exec(relative(tree.root, dir).split(sep).join('/'))?.[1];
    if (id !== undefined && ids.has(id)) {
      const list = outside.get(id);
      if (list) list.push(outsideFolderFinding(file));
      else outside.set(id, [outsideFolderFinding(file)]);
    } else
      alone.push(
        failedRootView({ id: 'agent-context' }, file, 'io/outside-project', `${file} ${OUTSIDE_REASON}`),
      );
  }
  return [...[...ids].sort().map((id) => runView(id, tree, ctx, extra, outside.get(id) ?? [])), ...alone];
}

function runView(
  id: string,
  tree: AgentContextTree,
  ctx: TreeContext,
  extra: readonly Finding[],
  outside: readonly Finding[],
): RunFacts {
  const orch = tree.orchestrator.get(id);
  const taskDoc = tree.tasks.get(id);
  const its = tree.iterations.get(id) ?? [];
  const r = orch ? summarizeRun(id, orch, its) : undefined;
  const t = taskDoc ? summarizeTask(id, taskDoc) : undefined;
  const docs = [orch, taskDoc, ...its.flatMap((x) => [x.iteration, x.decision])].filter(
    (d): d is CheckedDocument => !!d,
  );
  const files = new Set(docs.map((d) => d.file));
  const runDir = join(tree.root, 'runs', id);
  const temps = tree.tempFiles.filter(
    (p) => dirname(p) === runDir || dirname(p) === join(tree.root, 'orchestrator', id),
  );
  const findings = [
    ...outside,
    ...docs.flatMap((d) => d.findings),
    ...extra.filter((f) => files.has(f.file)),
    ...temps.map((p) =>
      findingAt(
        ctx.display(p),
        { line: 1, column: 1 },
        {
          code: 'agent-context/stale-temp-file',
          severity: agentContextCodes['agent-context/stale-temp-file'].severity,
          message: 'temp file of an interrupted write; ignored',
        },
      ),
    ),
  ].sort(compareFindings);
  const itSummaries =
    r?.iterations ??
    its.filter((x) => x.iteration || x.decision).map((x) => summarizeRun(id, undefined, [x]).iterations[0]!);
  const units = t ? [taskUnit(t, itSummaries)] : [];
  const last = r ? undefined : latestIteration(itSummaries);
  // A run whose loop ended (no orchestrator state) is not waiting on a process: finalize is done, any other end is
  // for a person (resume says so), neither is stale.
  const ended = loopEndedWithoutState(last, t);
  const status = r ? (r.supported ? (r.phase ?? 'unknown') : 'unsupported') : (t?.state ?? 'unknown');
  const tone: Tone = r
    ? !r.supported
      ? 'error'
      : r.phase === 'completed'
        ? CONVERGENCE_TONE[r.convergence?.status ?? ''] === 'active'
          ? 'ok'
          : (CONVERGENCE_TONE[r.convergence?.status ?? ''] ?? 'ok')
        : 'active'
    : ended
      ? ended.decision === 'finalize'
        ? 'ok'
        : 'neutral'
      : (TASK_TONE[t?.state ?? ''] ?? 'active');
  const resume = resumePlan(r, t, last);
  const details = [
    ...(r?.supported
      ? [
          { label: 'iteration', value: valueText(r.iteration ?? '?') },
          { label: 'phase', value: r.phase ?? '?' },
        ]
      : []),
    ...(r && !r.supported
      ? [{ label: 'schemaVersion', value: JSON.stringify(r.schemaVersion ?? null) }]
      : []),
    ...(r?.latestDecision
      ? [
          {
            label: 'latest decision',
            value: `${r.latestDecision.action}${r.latestDecision.blocking ? ' (blocking)' : ''}`,
          },
        ]
      : []),
    ...(last?.decision
      ? [
          {
            label: 'latest decision',
            value: `${last.decision}${last.blocking ? ' (blocking)' : ''}, iteration ${last.iteration}`,
          },
        ]
      : []),
    ...(r?.convergence
      ? [
          {
            label: 'convergence',
            value: `${r.convergence.status}${r.convergence.stopReason ? ` (${r.convergence.stopReason})` : ''}`,
          },
        ]
      : []),
    ...(r?.convergence?.fingerprint ? [{ label: 'fingerprint', value: r.convergence.fingerprint }] : []),
    ...(r?.resume ? [{ label: 'resume point', value: r.resume.done ? 'completed' : r.resume.key }] : []),
    ...(r?.revision !== undefined ? [{ label: 'revision', value: valueText(r.revision) }] : []),
    ...(r?.repo ? [{ label: 'repo', value: r.repo }] : []),
    ...(t
      ? [
          {
            label: 'task state',
            value: `${t.state}${t.previousState ? ` (from ${t.previousState})` : ''}${t.legacy ? ', legacy format' : ''}`,
          },
        ]
      : []),
    ...(t?.nextAction
      ? [
          {
            label: 'next action',
            value: `${t.nextAction.type}${t.nextAction.command ? `: ${t.nextAction.command}` : ''}`,
          },
        ]
      : []),
    ...(t && t.missingEvidence.length > 0
      ? [{ label: 'missing evidence', value: t.missingEvidence.join(', ') }]
      : []),
  ];
  const phases = r ? phasesOf(r) : [];
  const done = phases.filter((p) => p.status === 'done').length;
  return {
    id,
    dialect: 'agent-context',
    title: r?.task ?? t?.task ?? id,
    status,
    tone,
    root: ctx.display(r ? join(tree.root, 'orchestrator', id) : runDir),
    sources: docs.map((d) => ({ path: d.file, kind: d.kind })),
    ...(r?.createdAt ? { createdAt: r.createdAt } : {}),
    ...((r?.updatedAt ?? t?.updatedAt) ? { updatedAt: (r?.updatedAt ?? t?.updatedAt)! } : {}),
    ...(r?.completedAt ? { finishedAt: r.completedAt } : {}),
    phases,
    units,
    approvals: [],
    counts: countByStatus(units),
    progress: r
      ? { done, total: phases.length }
      : { done: t?.state === 'READY_FOR_REVIEW' ? 1 : 0, total: 1 },
    findings,
    resume,
    details,
  };
}

function countByStatus(units: readonly UnitView[]): Record<string, number> {
  const counts: Record<string, number> = Object.create(null);
  for (const u of units) counts[u.status] = (counts[u.status] ?? 0) + 1;
  return counts;
}
