import { valueText } from '../../text/value-text.js';
import type { ResumeItem, ResumePlan } from '../../view/run-view.js';
import { dependencyCycles } from './graph.js';
import { isObject, own, str, type UlpiDoc, unitDeps, unitEntries, unitStatus } from './model.js';
import { classifyUlpiLaunch, ulpiResumeSet } from './resume.js';

const ELIGIBLE_REASON: Record<string, string> = {
  in_progress: 'interrupted mid-flight: redo it (in_progress is not done)',
  blocked: 'blocked, dependencies done: eligible again',
  dep_blocked: 'stored dep_blocked, but its dependencies are done now',
  pending: 'pending, dependencies done',
};

function isBlocker(item: unknown): boolean {
  return isObject(item) && item.severity === 'blocker';
}

/** A short text for an open item, as run-status shows it. */
export function ulpiItemText(item: unknown): string {
  if (!isObject(item)) return typeof item === 'string' ? item : JSON.stringify(item);
  const label = [str(item, 'phase'), str(item, 'kind')].filter(Boolean).join('/');
  const why =
    str(item, 'detail') ??
    str(item, 'why') ??
    str(item, 'issue') ??
    str(item, 'summary') ??
    (str(item, 'unit') ? `unit ${str(item, 'unit')}` : JSON.stringify(item).slice(0, 90));
  return `${label ? `${label}: ` : ''}${why}`.slice(0, 160);
}

/** The normalized resume plan of a ulpi run: the original's resume set, the launch recipe, open blockers. */
export function ulpiPlanView(doc: UlpiDoc, file: string): ResumePlan {
  const set = ulpiResumeSet(doc);
  const launch = classifyUlpiLaunch(doc);
  const units = new Map(unitEntries(doc));
  const cyc = new Set(
    dependencyCycles([...units.keys()], new Map([...units].map(([k, u]) => [k, unitDeps(u)]))).flat(),
  );
  const status = str(doc, 'status');
  const items = Array.isArray(doc.openItems) ? doc.openItems : [];
  const itemId = (it: unknown, i: number) =>
    isObject(it) && typeof it.id === 'string' ? it.id : `openItems[${i}]`;
  const blocked: ResumeItem[] = Object.entries(set.dep_blocked).map(([id, raw]) => {
    const root = valueText(raw);
    return {
      id,
      reason: `waits for ${root}${!units.has(root) ? ' (not a unit: it never becomes done)' : cyc.has(root) ? ' (in a dependency cycle)' : ''}`,
    };
  });
  const needsPerson: ResumeItem[] = items
    .map((it, i) => ({ it, i }))
    .filter(({ it }) => isBlocker(it))
    .map(({ it, i }) => ({ id: itemId(it, i), reason: ulpiItemText(it) }));
  const notes: string[] = [];
  const counts = `skip ${set.skip.length} done · re-run ${set.eligible.length} eligible · ${blocked.length} dep-blocked`;
  let summary: string;
  if (status === 'done') summary = `done: this run converged and finalized (${counts})`;
  else if (status === 'aborted') {
    summary = `aborted: not resumable as-is; re-approve to start over (${counts})`;
    needsPerson.unshift({
      id: str(doc, 'id') ?? file,
      reason: 'the run was aborted: re-approve/relaunch to start over',
    });
  } else
    summary = `${counts}${launch.kind === 'codex-cli' ? '' : ` · ${launch.kind === 'legacy-workflow' ? 'migration-only launch' : 'no launch recipe'}`}`;
  if (launch.kind === 'codex-cli')
    notes.push(
      'resume with the Codex-native pipeline coordinator: it reads the durable checkpoint and skips done units',
    );
  else if (launch.kind === 'legacy-workflow') {
    const args: Record<string, unknown> = isObject(launch.launch.args) ? { ...launch.launch.args } : {};
    if (!args.statusFile) args.statusFile = file;
    notes.push(
      'MIGRATION ONLY: the persisted launch is a Claude Workflow() script, not a runnable command; re-approve/relaunch via pipeline.mjs',
      `original launch (statusFile re-pinned, for reference only): ${JSON.stringify({ scriptPath: launch.launch.scriptPath, args })}`,
    );
  } else
    notes.push(
      'NON-RUNNABLE: no launch recipe was persisted; relaunch via `node pipeline.mjs approve …` then `node pipeline.mjs start --run <id>`',
    );
  if (items.length > 0)
    notes.push(
      `${items.length} open item(s) in the findings register block \`finalize done\` until resolved`,
    );
  notes.push('resume means reconcile, then skip done: never re-init a live checkpoint');
  const runnable = launch.kind === 'codex-cli' && status !== 'done' && status !== 'aborted';
  return {
    summary,
    skip: set.skip.map((id) => ({ id, reason: 'done' })),
    runNext:
      status === 'aborted'
        ? []
        : set.eligible.map((id) => ({
            id,
            reason: ELIGIBLE_REASON[unitStatus(units.get(id)) ?? ''] ?? 'dependencies done',
          })),
    blocked,
    needsPerson,
    ...(runnable ? { command: { argv: ['node', ...launch.argv], shell: launch.shell } } : {}),
    notes,
    native: set,
  };
}

/** The launch kind, for the details. */
export function ulpiLaunchDetail(doc: UlpiDoc): string {
  const l = classifyUlpiLaunch(doc);
  if (l.kind === 'codex-cli') return `codex-cli (runnable): ${l.shell}`;
  if (l.kind === 'legacy-workflow')
    return `legacy-workflow (migration only): ${valueText(own(l.launch, 'scriptPath'))}`;
  return own(doc, 'launch') === undefined ? 'no-launch (none persisted)' : 'no-launch (malformed descriptor)';
}
