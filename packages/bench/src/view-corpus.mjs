// Corpora for the viewer scale benchmark (issue 7, point 5): one very large run per layout.
//   team: one run of 10,000 tasks and 100,000 task events (5 attempts each: 4 failed/interrupted + a last one)
//   ulpi: one status document of 10,000 units with dependencies
// Deterministic: the same sizes give the same bytes.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hexer, json, pad, stamps, writeTeamRunDir } from './corpus-kit.mjs';

/** One team run with `tasks` tasks of `attempts` attempts each (2 events per attempt). */
export function generateTeamRun(out, tasks, attempts) {
  const { rand, hex } = hexer(0x7ea3 ^ tasks);
  rmSync(out, { recursive: true, force: true });
  let t = Date.UTC(2026, 10, 20, 8, 0, 0, 0);
  const { runId, runDir, session } = writeTeamRunDir(join(out, '.team', 'runs'), t, hex);
  writeFileSync(join(out, '.team', 'runs', 'current'), `${runId}\n`);
  let events = 0;
  for (let k = 0; k < tasks; k++) {
    const taskId = `build-t${pad(k, 5)}`;
    const last = k % 9 === 0 ? 'running' : k % 13 === 0 ? 'awaiting_approval' : 'completed';
    for (let a = 1; a <= attempts; a++) {
      for (const event of ['task_started', 'task_finished']) {
        t += 50 + Math.floor(rand() * 400);
        const at = stamps(t);
        const final = a === attempts;
        const status = event === 'task_started' ? 'running' : final ? last : a % 2 ? 'failed' : 'interrupted';
        if (status === 'running' && event === 'task_finished') continue;
        const body = {
          event,
          at: at.iso,
          run_id: runId,
          task_id: taskId,
          stage: 'build',
          agent: 'be',
          attempt: a,
          status,
          session: `ses_${hex(24)}`,
          parent_session: session,
          inputs: ['.team/06-architecture.md'],
          artifacts: event === 'task_finished' && final ? [`.team/07-build-${k}.md`] : [],
          evidence: event === 'task_finished' ? `unit tests: ${1 + Math.floor(rand() * 40)} pass` : '',
          next: '',
          ...(event === 'task_started' && a > 1 ? { retry_of: a - 1, reason: 'flaky integration test' } : {}),
        };
        writeFileSync(
          join(runDir, 'events', `${at.compact}-${event}-${taskId}-a${a}-${hex(6)}.json`),
          json(body),
        );
        events++;
      }
    }
  }
  return { runId, dialect: 'team', tasks, events };
}

/** One ulpi v2 status document of `units` units, each depending on the one before. */
export function generateUlpiRun(out, units) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, '.ulpi', 'runs'), { recursive: true });
  const t0 = Date.UTC(2026, 10, 21, 9, 0, 0);
  const iso = (ms) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
  const id = 'scale-20261121T090000Z';
  const doc = {
    schemaVersion: 2,
    id,
    task: `Scale run of ${units} units`,
    status: 'running',
    createdAt: iso(t0),
    updatedAt: iso(t0 + units * 3000),
    phases: { build: { status: 'running', updatedAt: iso(t0), startedAt: iso(t0) } },
    units: {},
    openItems: [],
    resolvedItems: [],
    result: null,
    currentPhase: 'build',
  };
  for (let k = 0; k < units; k++) {
    const status = k < units * 0.7 ? 'done' : k < units * 0.7 + 5 ? 'in_progress' : 'pending';
    const u = {
      status,
      dependsOn: k > 0 ? [`u${pad(k - 1, 5)}`] : [],
      note: '',
      createdAt: iso(t0),
      updatedAt: iso(t0 + k * 3000),
    };
    if (status !== 'pending') u.startedAt = iso(t0 + k * 3000);
    if (status === 'done') u.finishedAt = iso(t0 + k * 3000 + 2000);
    doc.units[`u${pad(k, 5)}`] = u;
  }
  writeFileSync(join(out, '.ulpi', 'runs', `${id}.json`), json(doc));
  return { runId: id, dialect: 'ulpi', units };
}

/** Generates a corpus once; a marker beside it says which. */
export function ensure(out, key, make) {
  const marker = `${out}.meta.json`;
  if (existsSync(marker)) {
    try {
      const meta = JSON.parse(readFileSync(marker, 'utf8'));
      if (meta.key === key) return { ...meta, reused: true };
    } catch {
      // regenerate
    }
  }
  const meta = { key, ...make() };
  writeFileSync(marker, json(meta));
  return { ...meta, reused: false };
}
