import { RUN_VIEW_FORMAT_VERSION, type RunView, type UnitView } from '@ckpt/core';

/** How many source files the page document carries; the rest come from `/sources` when the reader asks. */
export const PAGE_SOURCES = 200;
/** Units in the page document: the first screens; the rest come from `/units?offset=&limit=` (default 100). */
export const PAGE_UNITS = 100;
/** Findings in the page document; the rest come from `/findings?offset=&limit=`. */
export const PAGE_FINDINGS = 100;
/** Items of each resume-plan group in the page document; the whole plan is `/resume`. */
export const PAGE_PLAN_ITEMS = 50;
/** Most items one paged request returns. */
export const MAX_PAGE = 5000;

/**
 * A unit as the unit list needs it: the row (status, duration, tries or checks), its dependencies and the timeline (each attempt's
 * status, tone and times). Evidence, inputs, artifacts, notes and each attempt's files come with `/units/<id>`.
 */
function slimUnit(u: UnitView) {
  return {
    id: u.id,
    status: u.status,
    tone: u.tone,
    dependsOn: u.dependsOn,
    ...(u.startedAt !== undefined ? { startedAt: u.startedAt } : {}),
    ...(u.finishedAt !== undefined ? { finishedAt: u.finishedAt } : {}),
    ...(u.durationMs !== undefined ? { durationMs: u.durationMs } : {}),
    ...(u.checks ? { checks: u.checks } : {}),
    attempts: u.attempts.map((a) => ({
      attempt: a.attempt,
      status: a.status,
      tone: a.tone,
      ...(a.startedAt !== undefined ? { startedAt: a.startedAt } : {}),
      ...(a.endedAt !== undefined ? { endedAt: a.endedAt } : {}),
    })),
    slim: true,
  };
}

const PLAN_GROUPS = ['skip', 'runNext', 'blocked', 'needsPerson'] as const;

/**
 * The plan with each group cut to its first items; when anything was cut, the dialect's `native` form (as long as
 * the plan) is left out too: the whole plan is `/resume`.
 */
function planHead(plan: RunView['resume']): RunView['resume'] {
  if (PLAN_GROUPS.every((k) => plan[k].length <= PAGE_PLAN_ITEMS)) return plan;
  const { native: _native, ...rest } = plan;
  return { ...rest, ...Object.fromEntries(PLAN_GROUPS.map((k) => [k, plan[k].slice(0, PAGE_PLAN_ITEMS)])) };
}

/**
 * The run page's first document: the header facts, the counts, the first screen of slim units, the first
 * findings, files and plan items, each list with its total (`unitsTotal`, `findingsTotal`, `sourcesTotal`,
 * `resume.skipTotal`...). The rest is paged (`/units`, `/findings`, `/sources`) or whole on demand (`/resume`), so
 * a 10,000-task run opens with a few dozen KB; `/api/runs/<dialect>/<id>` stays the full `ckpt status --json`.
 */
export function pageDocument(run: RunView, units = PAGE_UNITS) {
  const statusTones: Record<string, string> = {};
  for (const u of run.units) if (!(u.status in statusTones)) statusTones[u.status] = u.tone;
  return {
    formatVersion: RUN_VIEW_FORMAT_VERSION,
    run: {
      ...run,
      units: run.units.slice(0, units).map(slimUnit),
      unitsTotal: run.units.length,
      statusTones,
      span: spanOf(run),
      findings: run.findings.slice(0, PAGE_FINDINGS),
      findingsTotal: run.findings.length,
      sources: run.sources.slice(0, PAGE_SOURCES),
      sourcesTotal: run.sources.length,
      resume: planHead(run.resume),
      planTotals: Object.fromEntries(PLAN_GROUPS.map((k) => [k, run.resume[k].length])),
    },
  };
}

/** The first and last time of any unit or attempt (what the timeline column spans), ISO strings. */
function spanOf(run: RunView): { from: string; to: string } | undefined {
  let lo = '';
  let hi = '';
  const see = (iso: string | undefined) => {
    if (!iso) return;
    if (!lo || iso < lo) lo = iso;
    if (!hi || iso > hi) hi = iso;
  };
  see(run.createdAt);
  see(run.updatedAt);
  see(run.finishedAt);
  for (const u of run.units) {
    see(u.startedAt);
    see(u.finishedAt);
    for (const a of u.attempts) {
      see(a.startedAt);
      see(a.endedAt);
    }
  }
  return lo ? { from: lo, to: hi } : undefined;
}

/** A range of a list: `offset` and `limit` from the query, clamped. */
export function pageRange(total: number, offset: unknown, limit: unknown, dflt = 500) {
  const o = Math.max(0, Math.min(total, Number.parseInt(String(offset ?? '0'), 10) || 0));
  const l = Math.max(1, Math.min(MAX_PAGE, Number.parseInt(String(limit ?? dflt), 10) || dflt));
  return { offset: o, end: Math.min(total, o + l) };
}

/** Slim units `[offset, offset+limit)` of a run, or those named by `id` (repeated), with the total. */
export function unitsPage(run: RunView, q: { offset?: string; limit?: string; id?: string | string[] }) {
  if (q.id !== undefined) {
    const want = new Set(Array.isArray(q.id) ? q.id : [q.id]);
    const units = run.units.filter((u) => want.has(u.id)).map(slimUnit);
    return { formatVersion: RUN_VIEW_FORMAT_VERSION, total: run.units.length, units };
  }
  const { offset, end } = pageRange(run.units.length, q.offset, q.limit);
  return {
    formatVersion: RUN_VIEW_FORMAT_VERSION,
    total: run.units.length,
    offset,
    units: run.units.slice(offset, end).map(slimUnit),
  };
}

/** Findings `[offset, offset+limit)` of a run, with the total. */
export function findingsPage(run: RunView, q: { offset?: string; limit?: string }) {
  const { offset, end } = pageRange(run.findings.length, q.offset, q.limit);
  return {
    formatVersion: RUN_VIEW_FORMAT_VERSION,
    total: run.findings.length,
    offset,
    findings: run.findings.slice(offset, end),
  };
}

/** One unit in full (its attempts with evidence and files), for the detail the page opens. */
export function unitDocument(run: RunView, unitId: string) {
  const unit = run.units.find((u) => u.id === unitId);
  return unit ? { formatVersion: RUN_VIEW_FORMAT_VERSION, unit } : undefined;
}

/** The source files of a run: every one, or `[offset, offset+limit)` when the query names a range. */
export function sourcesDocument(run: RunView, q: { offset?: string; limit?: string } = {}) {
  if (q.offset === undefined && q.limit === undefined)
    return { formatVersion: RUN_VIEW_FORMAT_VERSION, sources: run.sources };
  const { offset, end } = pageRange(run.sources.length, q.offset, q.limit);
  return {
    formatVersion: RUN_VIEW_FORMAT_VERSION,
    total: run.sources.length,
    offset,
    sources: run.sources.slice(offset, end),
  };
}
