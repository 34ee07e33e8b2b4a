#!/usr/bin/env node
// Writes a realistic OpenCode Team checkpoint tree of N files for the benchmark:
//   <out>/.team/runs/current
//   <out>/.team/runs/<run_id>/run.json
//   <out>/.team/runs/<run_id>/events/<time>-<event>-<task>-a<attempt>-<token>.json   (≈ 98.5% of files)
//   <out>/.team/runs/<run_id>/approvals/<time>-<stage>-<token>.json
// Every document is valid and shaped like the seed (two-space indented JSON, about 430 bytes per event).
// Deterministic: the same N always gives the same bytes, so runs on different days compare.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { hexer, json, pad, stamps, writeTeamRunDir } from './corpus-kit.mjs';

/** Events per run: 200 tasks, each started and finished. */
const EVENTS_PER_RUN = 400;
const APPROVALS_PER_RUN = 5;
const STAGES = ['design', 'build', 'test', 'review', 'ship'];
const AGENTS = ['fe', 'be', 'qa', 'docs', 'ops'];
const TERMINAL = [
  'completed',
  'completed',
  'completed',
  'completed',
  'failed',
  'interrupted',
  'awaiting_approval',
];

/**
 * Writes the tree and returns counts. `n` is the total number of checkpoint files (run.json, events and
 * approvals together).
 */
export function generate(n, out) {
  const { rand, hex } = hexer(0xc0ffee ^ n);
  const sha = () => hex(64);
  rmSync(out, { recursive: true, force: true });
  const runsDir = join(out, '.team', 'runs');
  mkdirSync(runsDir, { recursive: true });
  let written = 0;
  let events = 0;
  let lastRun = '';
  let t = Date.UTC(2026, 9, 28, 13, 10, 16, 577);
  while (written < n) {
    const created = stamps(t);
    const { runId, runDir, session } = writeTeamRunDir(runsDir, t, hex);
    lastRun = runId;
    written++;
    const room = n - written;
    const approvals = Math.min(APPROVALS_PER_RUN, Math.floor(room / 80));
    const eventCount = Math.min(EVENTS_PER_RUN, room - approvals);
    for (let i = 0; i < eventCount; i++) {
      const task = Math.floor(i / 2);
      const started = i % 2 === 0;
      const stage = STAGES[task % STAGES.length];
      const agent = AGENTS[Math.floor(task / STAGES.length) % AGENTS.length];
      const taskId = `${stage}-${agent}-${created.compact.slice(0, 13)}Z-${pad(task, 3)}`;
      t += 1000 + Math.floor(rand() * 60_000);
      const at = stamps(t);
      const event = started ? 'task_started' : 'task_finished';
      const status = started ? 'running' : TERMINAL[Math.floor(rand() * TERMINAL.length)];
      const body = {
        event,
        at: at.iso,
        run_id: runId,
        task_id: taskId,
        stage,
        agent,
        attempt: 1,
        status,
        session: `ses_${hex(24)}`,
        parent_session: session,
        inputs: ['.team/06-architecture.md'],
        artifacts: started ? [] : [`.team/07-${stage}-${agent}.md`],
        evidence: started ? '' : `unit tests: ${1 + Math.floor(rand() * 40)} pass`,
        next: started ? '' : 'wait for review',
      };
      const name = `${at.compact}-${event}-${taskId}-a1-${hex(6)}.json`;
      writeFileSync(join(runDir, 'events', name), json(body));
      written++;
      events++;
    }
    for (let i = 0; i < approvals; i++) {
      t += 1000;
      const at = stamps(t);
      const stage = STAGES[i % STAGES.length];
      writeFileSync(
        join(runDir, 'approvals', `${at.compact}-${stage}-${hex(6)}.json`),
        json({
          stage,
          artifact: `.team/07-${stage}.md`,
          sha256: sha(),
          by: 'samet',
          approved_at: at.iso,
          note: 'looks good',
        }),
      );
      written++;
    }
    t += 3_600_000;
  }
  writeFileSync(join(runsDir, 'current'), `${lastRun}\n`);
  const meta = { n, files: written, events, generator: 1 };
  // The marker sits next to the tree, not in it, so every file in the tree is a checkpoint.
  writeFileSync(`${out}.meta.json`, json(meta));
  return meta;
}

/** Generates the corpus for N into `out` unless a complete one is already there. */
export function ensureCorpus(n, out) {
  const metaFile = `${out}.meta.json`;
  if (existsSync(metaFile)) {
    try {
      const meta = JSON.parse(readFileSync(metaFile, 'utf8'));
      if (meta.n === n && meta.generator === 1) return { ...meta, reused: true };
    } catch {
      // fall through: regenerate a corpus whose marker is damaged
    }
  }
  return { ...generate(n, out), reused: false };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { n: { type: 'string', default: '1000' }, out: { type: 'string' } },
  });
  const n = Number(values.n);
  const out = values.out ?? join(import.meta.dirname, '..', 'corpus', String(n));
  const t0 = performance.now();
  const meta = generate(n, out);
  process.stderr.write(
    `wrote ${meta.files} files (${meta.events} task events) to ${out} in ${Math.round(performance.now() - t0)} ms\n`,
  );
}
