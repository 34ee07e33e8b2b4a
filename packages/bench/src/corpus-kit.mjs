// What the corpus generators share: time stamps in both styles, JSON as the originals write it, a deterministic
// PRNG, and a team run directory with its run.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const json = (v) => `${JSON.stringify(v, null, 2)}\n`;
export const pad = (n, w = 2) => String(n).padStart(w, '0');

/** `2026-10-28T13:11:00Z` and the file-name style `20261028T131100000000Z` for a millisecond time. */
export function stamps(ms) {
  const d = new Date(ms);
  const ymd = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
  const hms = `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
  return {
    iso: `${d.toISOString().slice(0, 19)}Z`,
    compact: `${ymd}T${hms}${pad(d.getUTCMilliseconds(), 3)}000Z`,
  };
}

/** A tiny deterministic PRNG (mulberry32) and hex strings from it, so a corpus is the same on every machine. */
export function hexer(seed) {
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const hex = (len) => {
    let s = '';
    for (let i = 0; i < len; i++) s += Math.floor(rand() * 16).toString(16);
    return s;
  };
  return { rand, hex };
}

/** Creates `<runsDir>/<run_id>/` with events/, approvals/ and run.json; returns the run id, its directory and its session. */
export function writeTeamRunDir(runsDir, createdMs, hex) {
  const created = stamps(createdMs);
  const runId = `${created.compact}-${hex(6)}`;
  const runDir = join(runsDir, runId);
  mkdirSync(join(runDir, 'events'), { recursive: true });
  mkdirSync(join(runDir, 'approvals'), { recursive: true });
  const session = `ses_${hex(24)}`;
  writeFileSync(
    join(runDir, 'run.json'),
    json({
      run_id: runId,
      created_at: created.iso,
      profile: 'new',
      stage: 'build',
      status: 'running',
      session,
      parent_session: `ses_${hex(24)}`,
    }),
  );
  return { runId, runDir, session };
}
