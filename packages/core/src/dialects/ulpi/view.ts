import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { compareFindings, type Finding, findingAt } from '../../findings/finding.js';
import { valueText } from '../../text/value-text.js';
import type { PhaseView, RunFacts, Tone, UnitView } from '../../view/run-view.js';
import type { TreeContext } from '../dialect.js';
import { ulpiCodes } from './codes.js';
import { eventLogPathFor } from './event-log-io.js';
import { ulpiSnapshotState } from './event-log-rules.js';
import { type UlpiRunFile, ulpiRunId } from './load.js';
import { isObject, own, parseStamp, pointer, str, unitDeps, unitEntries } from './model.js';
import { ulpiItemText, ulpiLaunchDetail, ulpiPlanView } from './view-plan.js';

const RUN_TONES: Record<string, Tone> = {
  running: 'active',
  initializing: 'active',
  needs_attention: 'warning',
  done: 'ok',
  aborted: 'error',
};
const UNIT_TONES: Record<string, Tone> = {
  done: 'ok',
  in_progress: 'active',
  pending: 'neutral',
  blocked: 'error',
  dep_blocked: 'warning',
};
const PHASE_TONES: Record<string, Tone> = {
  done: 'ok',
  running: 'active',
  pending: 'neutral',
  skipped: 'neutral',
  blocked: 'error',
};
/** The original's display order of a coordinator's phases: the order of phases that have not started yet. */
const PHASE_ORDER = [
  'build',
  'simplify',
  'test',
  'review',
  'performance',
  'ship_prep',
  'auto_learn',
  'auto_map',
  'finalize',
];

const tone = (map: Record<string, Tone>, s: string) => (Object.hasOwn(map, s) ? map[s]! : 'neutral');
const opt = <K extends string>(k: K, v: string | undefined) =>
  v !== undefined ? ({ [k]: v } as Record<K, string>) : {};

/**
 * Phases in the order they ran: by `startedAt` (the first time each went running); phases that never started
 * follow, in the coordinator's display order, then as the document lists them (the order they were first set).
 */
function phaseViews(doc: Record<string, unknown>): PhaseView[] {
  const phases = own(doc, 'phases');
  if (!isObject(phases)) return [];
  const keys = Object.keys(phases);
  const started = (k: string) => parseStamp(own(phases[k], 'startedAt'));
  const rank = (k: string) => (PHASE_ORDER.includes(k) ? PHASE_ORDER.indexOf(k) : PHASE_ORDER.length);
  const byRun = (a: string, b: string) => {
    const sa = started(a);
    const sb = started(b);
    if (!Number.isNaN(sa) || !Number.isNaN(sb)) {
      if (Number.isNaN(sa)) return 1;
      if (Number.isNaN(sb)) return -1;
      if (sa !== sb) return sa - sb;
    }
    return rank(a) - rank(b) || keys.indexOf(a) - keys.indexOf(b);
  };
  return [...keys].sort(byRun).map((id) => {
    const p = phases[id];
    const status = str(p, 'status') ?? 'malformed';
    return {
      id,
      status,
      tone: tone(PHASE_TONES, status),
      ...(id === own(doc, 'currentPhase') ? { current: true } : {}),
      ...opt('startedAt', str(p, 'startedAt')),
      ...opt('finishedAt', str(p, 'finishedAt')),
    };
  });
}

function unitViews(doc: Record<string, unknown>): UnitView[] {
  return unitEntries(doc).map(([id, u]) => {
    const status = str(u, 'status') ?? 'malformed';
    const start = parseStamp(own(u, 'startedAt'));
    const end = parseStamp(own(u, 'finishedAt'));
    const dur = status === 'done' && end >= start ? end - start : undefined;
    const note = str(u, 'note');
    return {
      id,
      status,
      tone: status === 'malformed' ? 'error' : tone(UNIT_TONES, status),
      dependsOn: unitDeps(u),
      ...(note ? { note } : {}),
      inputs: [],
      artifacts: [],
      ...opt('startedAt', str(u, 'startedAt')),
      ...opt('finishedAt', str(u, 'finishedAt')),
      ...opt('updatedAt', str(u, 'updatedAt')),
      ...(dur !== undefined && Number.isFinite(dur) ? { durationMs: dur } : {}),
      attempts: [],
    };
  });
}

function itemFindings(r: UlpiRunFile, doc: Record<string, unknown>): Finding[] {
  const items = Array.isArray(doc.openItems) ? doc.openItems : [];
  return items.map((it, i) => {
    const ptr = pointer('openItems', i);
    const loc = r.doc.sourceMap?.locate(ptr) ?? { line: 1, column: 1 };
    const id = isObject(it) && typeof it.id === 'string' ? `${it.id}: ` : '';
    const blocker = isObject(it) && it.severity === 'blocker';
    return findingAt(r.doc.file, loc, {
      code: 'ulpi/open-item',
      severity: blocker ? 'warning' : ulpiCodes['ulpi/open-item'].severity,
      message: `open item ${id}${ulpiItemText(it)}`,
      pointer: ptr,
    });
  });
}

function details(
  r: UlpiRunFile,
  doc: Record<string, unknown>,
  ctx: TreeContext,
  logState: string | undefined,
) {
  const d: { label: string; value: string }[] = [];
  const add = (label: string, value: string | undefined) => value !== undefined && d.push({ label, value });
  add('task', str(doc, 'task'));
  add('file', r.doc.file);
  add(
    'schema version',
    doc.schemaVersion === 1
      ? '1 (legacy: reads leave it unchanged; a mutating write upgrades it add-only)'
      : valueText(doc.schemaVersion),
  );
  add('launch', ulpiLaunchDetail(doc));
  add('current phase', str(doc, 'currentPhase'));
  const p = own(doc, 'pipeline');
  const short = (ref: string | undefined) => ref?.replace(/^refs\/heads\//, '');
  if (str(p, 'integrationRef') || str(p, 'targetRef'))
    add('branch', [short(str(p, 'integrationRef')), short(str(p, 'targetRef'))].filter(Boolean).join(' → '));
  const fv = own(doc, 'finalValidation');
  if (isObject(fv))
    add('final validation', `${valueText(fv.status)}${typeof fv.note === 'string' ? `: ${fv.note}` : ''}`);
  else if (doc.requireValidation === true) add('final validation', 'required, not recorded yet');
  if (doc.result !== undefined && doc.result !== null)
    add('result', typeof doc.result === 'string' ? doc.result : JSON.stringify(doc.result));
  const open = Array.isArray(doc.openItems) ? doc.openItems.length : 0;
  const resolved = Array.isArray(doc.resolvedItems) ? doc.resolvedItems.length : 0;
  if (open || resolved) add('findings register', `${open} open, ${resolved} resolved`);
  for (const [id, u] of unitEntries(doc)) {
    const note = str(u, 'note');
    if (note?.startsWith('reconciled-from-trailer')) add(`reconciled ${id}`, note);
  }
  if (logState !== undefined) add('event log', `${ctx.display(eventLogPathFor(r.path))} (${logState})`);
  return d;
}

/** The RunView of one status file (an unreadable one shows as `unreadable`, with why). */
export function ulpiRunView(r: UlpiRunFile, ctx: TreeContext, extra: readonly Finding[] = []): RunFacts {
  const root = ctx.display(dirname(r.path));
  const id = ulpiRunId(r);
  const logPath = eventLogPathFor(r.path);
  const hasLog = existsSync(logPath);
  const sources = [
    { path: r.doc.file, kind: r.doc.kind },
    ...(hasLog ? [{ path: ctx.display(logPath), kind: 'ulpi/event-log-line' }] : []),
  ];
  const logDoc = hasLog ? ctx.document(logPath) : undefined;
  const baseFindings = [...r.doc.findings, ...(logDoc?.findings ?? []), ...extra];
  const doc = r.value;
  if (!doc) {
    const reason = `unreadable: ${r.error ?? 'cannot parse'}`;
    return {
      id,
      dialect: 'ulpi',
      title: basename(r.name),
      status: 'unreadable',
      tone: 'error',
      root,
      sources,
      phases: [],
      units: [],
      approvals: [],
      counts: {},
      progress: { done: 0, total: 0 },
      findings: [...baseFindings].sort(compareFindings),
      resume: {
        summary: reason,
        skip: [],
        runNext: [],
        blocked: [],
        needsPerson: [{ id, reason }],
        notes: ['an unparsable checkpoint is never treated as done: fix or restore the file'],
      },
      details: [{ label: 'file', value: r.doc.file }],
    };
  }
  const units = unitViews(doc);
  const counts: Record<string, number> = {};
  for (const u of units) counts[u.status] = (counts[u.status] ?? 0) + 1;
  const status = str(doc, 'status') ?? 'unknown';
  const findings = [...baseFindings, ...itemFindings(r, doc)].sort(compareFindings);
  const logState = logDoc ? ulpiSnapshotState(r.doc, logDoc) : undefined;
  const resume = ulpiPlanView(doc, r.doc.file);
  return {
    id,
    dialect: 'ulpi',
    title: str(doc, 'task') ?? id,
    status,
    tone: tone(RUN_TONES, status),
    root,
    sources,
    ...opt('createdAt', str(doc, 'createdAt')),
    ...opt('updatedAt', str(doc, 'updatedAt')),
    ...opt('finishedAt', str(doc, 'finishedAt')),
    phases: phaseViews(doc),
    units,
    approvals: [],
    counts,
    progress: { done: counts.done ?? 0, total: units.length },
    findings,
    resume,
    details: details(r, doc, ctx, logState),
  };
}
