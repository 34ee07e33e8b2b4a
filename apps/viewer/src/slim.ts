import { RUN_VIEW_FORMAT_VERSION, type RunView, type UnitView } from '@ckpt/core';

/** How many source files the page document carries; the rest come from `/sources` when the reader asks. */
export const PAGE_SOURCES = 200;

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

/**
 * The run page's document: the RunView with slim units and the first source files only, so a 10,000-task run
 * opens without moving the whole view (`/api/runs/<dialect>/<id>` stays the full `ckpt status --json` document).
 */
export function pageDocument(run: RunView) {
  return {
    formatVersion: RUN_VIEW_FORMAT_VERSION,
    run: {
      ...run,
      units: run.units.map(slimUnit),
      sources: run.sources.slice(0, PAGE_SOURCES),
      sourcesTotal: run.sources.length,
    },
  };
}

/** One unit in full (its attempts with evidence and files), for the detail the page opens. */
export function unitDocument(run: RunView, unitId: string) {
  const unit = run.units.find((u) => u.id === unitId);
  return unit ? { formatVersion: RUN_VIEW_FORMAT_VERSION, unit } : undefined;
}

/** Every source file of a run. */
export function sourcesDocument(run: RunView) {
  return { formatVersion: RUN_VIEW_FORMAT_VERSION, sources: run.sources };
}
