/**
 * The time every "now" in ckpt is read from: `CKPT_NOW` (an ISO 8601 time or epoch milliseconds) when set, so a
 * test or the README check sees stable "ago" columns and staleness; the system clock otherwise.
 */
export function currentTime(env: NodeJS.ProcessEnv = process.env): number {
  const fixed = env.CKPT_NOW;
  if (fixed === undefined || fixed === '') return Date.now();
  const ms = /^\d+$/.test(fixed) ? Number(fixed) : Date.parse(fixed);
  if (!Number.isFinite(ms))
    throw new Error(`CKPT_NOW must be an ISO 8601 time or epoch milliseconds, got "${fixed}"`);
  return ms;
}
