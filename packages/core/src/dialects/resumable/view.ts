import type { Finding } from '../../findings/finding.js';
import type { PhaseView, ResumePlan, RunFacts, Tone, UnitView } from '../../view/run-view.js';
import { stageArtifacts } from './artifacts.js';
import { CONTRACT_ITEMS, contractOf } from './contract.js';
import { type RunRoot, valuesOf } from './load.js';
import { describeHolder } from './lock.js';
import { type ResumableResume, resumeDecision, WINDOW_TITLES } from './resume.js';
import { checksOf, pushProgress, runIdTime, stageDone, stagesOf } from './stages.js';

const STATUS_TONE: Record<string, Tone> = {
  done: 'ok',
  'done-with-errors': 'error',
  finalized: 'ok',
  running: 'active',
  in_progress: 'active',
  pending: 'neutral',
  interrupted: 'warning',
  blocked: 'error',
};

/** The error findings about one stage's keys (`<stage>_...` in state.env, `CB_<stage>_...` in the checklist). */
function stageErrors(stage: string, findings: readonly Finding[]): Finding[] {
  const keys = new RegExp(`^/(?:CB_)?${stage.replace(/[^A-Za-z0-9]/g, '\\$&')}_`);
  return findings.filter((f) => f.severity === 'error' && f.pointer !== undefined && keys.test(f.pointer));
}

/**
 * A stage per unit. A stage whose flag says done but whose keys have an error finding (M2_DONE=1 while a checklist
 * item is 0) is `done-with-errors` in the error tone, with the first finding as its note: never a green "done".
 */
function stageUnits(root: RunRoot, findings: readonly Finding[]): UnitView[] {
  const s = valuesOf(root.state) ?? {};
  const c = valuesOf(root.checklist) ?? {};
  return stagesOf(s, c).map((st) => {
    const checks = checksOf(st, c);
    const done = stageDone(st, s);
    const started = checks.some((i) => i.done);
    const errors = done ? stageErrors(st, findings) : [];
    const status =
      errors.length > 0
        ? 'done-with-errors'
        : done
          ? 'done'
          : s.CURRENT_STAGE === st || started
            ? 'in_progress'
            : 'pending';
    return {
      id: st,
      status,
      tone: STATUS_TONE[status]!,
      ...(errors[0] ? { note: errors[0].message } : {}),
      stage: st,
      dependsOn: [],
      inputs: [],
      artifacts: stageArtifacts(st, s, c, root.artifacts).map((a) => `artifacts/${a}`),
      attempts: [],
      checks: checks.map((i) => ({ id: i.item, done: i.done })),
    };
  });
}

function planOf(r: ResumableResume, root: RunRoot): ResumePlan {
  const where = WINDOW_TITLES[r.window];
  const summary =
    r.stops.length > 0
      ? `stop: ${r.stops.length} stop condition${r.stops.length > 1 ? 's' : ''} (${where})`
      : r.window === 'complete'
        ? 'complete: nothing to resume'
        : r.stage
          ? `resume at ${r.stage} (${where})`
          : `finalize (${where})`;
  const runNext =
    r.stops.length > 0 || r.window === 'complete'
      ? []
      : r.stage
        ? [{ id: r.stage, reason: 'earliest stage whose flag is not 1 or whose checklist is incomplete' }]
        : [{ id: 'finalize', reason: 'every stage is done; finalization flags are not all 1' }];
  return {
    summary,
    skip: r.doneStages.map((id) => ({ id, reason: 'done, checklist complete' })),
    runNext,
    blocked: r.stops.map((s, i) => ({ id: `stop-${i + 1}`, reason: s })),
    needsPerson: r.observe.map((o) => ({
      id: o.what,
      reason: o.command ? `${o.command}: expect ${o.expect}` : o.expect,
    })),
    notes:
      root.lockState.state === 'foreign'
        ? ['the lock is held on another host; its liveness cannot be checked here']
        : [],
    native: r,
  };
}

/** The RunView of one run root. `findings` are every finding of its files (parse, schema and semantic). */
export function runRootView(
  root: RunRoot,
  display: (abs: string) => string,
  findings: readonly Finding[],
): RunFacts {
  const s = valuesOf(root.state);
  const c = valuesOf(root.checklist);
  const recorded = valuesOf(root.contract);
  const r = resumeDecision(s, c, findings, root.lockState, recorded);
  const contract = s ? contractOf(s, recorded) : undefined;
  const push = s && c ? pushProgress(stagesOf(s, c), s, c) : undefined;
  const units = stageUnits(root, findings);
  const counts: Record<string, number> = Object.create(null);
  for (const u of units) counts[u.status] = (counts[u.status] ?? 0) + 1;
  const status =
    r.stops.length > 0 || r.window === 'unknown'
      ? 'blocked'
      : r.window === 'complete'
        ? 'finalized'
        : root.lockState.state === 'active'
          ? 'running'
          : 'interrupted';
  const lastLine = root.log?.lines.at(-1);
  const lastLog = root.log?.lines.filter((l) => l.at).at(-1)?.at;
  const createdAt = runIdTime(s?.RUN_ID ?? root.name.slice(-16));
  const phases: PhaseView[] = units.map((u) => ({
    id: u.id,
    status: u.status,
    tone: u.tone,
    ...(s?.CURRENT_STAGE === u.id ? { current: true } : {}),
  }));
  const ls = root.lockState;
  const details = [
    { label: 'resume window', value: WINDOW_TITLES[r.window] },
    { label: 'current stage', value: s?.CURRENT_STAGE ?? '(unknown)' },
    {
      label: 'lock',
      value: ls.state === 'none' ? 'none' : `${ls.state}${ls.holder ? `: ${describeHolder(ls.holder)}` : ''}`,
    },
    ...CONTRACT_ITEMS.filter((i) => ['branch', 'basePin', 'expectedOldSha'].includes(i.id)).flatMap((i) => {
      const v = contract?.[i.id];
      return v ? [{ label: i.label, value: v.fromRecord ? v.value : `${v.value} (${v.key})` }] : [];
    }),
    ...(push?.hasPushChecks
      ? [
          {
            label: 'push',
            value: push.confirmed ? 'confirmed' : push.attempted ? 'attempted' : 'not attempted',
          },
        ]
      : []),
    {
      label: 'contract recorded',
      value: root.contract ? 'artifacts/contract.env' : 'no (run not bootstrapped by ckpt)',
    },
    ...(lastLine ? [{ label: 'last log', value: `[${lastLine.at ?? '?'}] ${lastLine.message}` }] : []),
    {
      label: 'finalization',
      value:
        Object.entries(r.finalization)
          .map(([k, v]) => `${k}=${v ? 1 : 0}`)
          .join(' ') || '(unknown)',
    },
  ];
  return {
    id: root.name,
    dialect: 'resumable',
    title: s?.TASK_NAME ?? root.name,
    status,
    tone: STATUS_TONE[status]!,
    root: display(root.dir),
    sources: [root.state, root.checklist, root.lock, root.contract]
      .filter((d) => d !== undefined)
      .map((d) => ({ path: d.file, kind: d.kind }))
      .concat(root.log ? [{ path: root.log.file, kind: undefined }] : []),
    ...(createdAt ? { createdAt } : {}),
    ...((lastLog ?? createdAt) ? { updatedAt: (lastLog ?? createdAt)! } : {}),
    ...(r.window === 'complete' && lastLog ? { finishedAt: lastLog } : {}),
    phases,
    units,
    approvals: [],
    counts,
    progress: { done: units.filter((u) => u.status === 'done').length, total: units.length },
    findings,
    resume: planOf(r, root),
    details,
  };
}
