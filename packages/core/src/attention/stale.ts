import type { DialectId } from '../dialects/dialect.js';

const HOUR = 3_600_000;

/**
 * How long a run may show an active status without any update before it counts as stale, per dialect. Each
 * dialect's writer touches the files at least once per unit of work, so a gap longer than its slowest unit means
 * the process that was running it has gone:
 * - team: an event file per task start/finish; tasks run minutes to a few hours → 6 hours.
 * - resumable: a run.log line per stage step; a stage (a deploy, a migration) can take hours → 12 hours.
 * - ulpi: `updatedAt` on every unit, phase and item change → 24 hours.
 * - agent-context: `updatedAt` per state transition; an iteration can wait on a review for a day → 24 hours.
 */
export const STALE_AFTER_MS: Readonly<Record<DialectId, number>> = {
  team: 6 * HOUR,
  resumable: 12 * HOUR,
  ulpi: 24 * HOUR,
  'agent-context': 24 * HOUR,
};

/** `3d 4h`, `5h 10m`, `42m`: a duration for a reason's message. */
export function describeDuration(ms: number): string {
  const m = Math.floor(ms / 60_000);
  const d = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  if (d > 0) return `${d}d${h > 0 ? ` ${h}h` : ''}`;
  if (h > 0) return `${h}h${m % 60 > 0 ? ` ${m % 60}m` : ''}`;
  return `${m}m`;
}
