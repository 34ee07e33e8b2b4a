#!/usr/bin/env node
// The benchmark runner: times, in one run and interleaved, `ckpt validate` over generated checkpoint trees,
// the floor (read + JSON.parse every file), `node -e 0`, ajv-cli and sourcemeta jsonschema on the same files,
// then prints a table of medians and ratios and records it in BENCHMARKS.md.
//
//   pnpm bench                                   # sizes 1, 1000, 10000, 100000; every suite; 5 repetitions
//   pnpm bench --sizes 1,10000 --reps 9          # fewer sizes, more repetitions
//   pnpm bench --suites floor,ckpt --no-write    # a quick check, BENCHMARKS.md left alone
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureCorpus } from './generate.mjs';
import { installCli } from './installed.mjs';
import { machine, writeReport } from './report.mjs';
import { suiteTable } from './suites.mjs';
import { median, timeCommand } from './time.mjs';

const HELP = `usage: node src/run.mjs [options]

  --sizes <list>    corpus sizes; 1 means one task-event file (default: 1,1000,10000,100000)
  --suites <list>   ${Object.keys(suiteTable).join(', ')} (default: all)
  --reps <n>        timed repetitions per suite and size, interleaved (default: 5; 3 for sizes >= 100000)
  --no-write        print the table only; leave BENCHMARKS.md alone
  --out <file>      where to record results (default: BENCHMARKS.md at the repository root)
`;

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1,1000,10000,100000' },
    suites: { type: 'string', default: Object.keys(suiteTable).join(',') },
    reps: { type: 'string' },
    'no-write': { type: 'boolean', default: false },
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}

const benchDir = join(import.meta.dirname, '..');
const repoRoot = join(benchDir, '..', '..');
const ckptBin = join(repoRoot, 'apps', 'cli', 'bin', 'ckpt.js');
if (!existsSync(join(repoRoot, 'apps', 'cli', 'dist', 'main.js'))) {
  process.stderr.write('bench: the CLI is not built; run `pnpm build` first\n');
  process.exit(2);
}
const sizes = values.sizes.split(',').map(Number);
const suites = values.suites.split(',').map((s) => s.trim());
for (const s of suites) {
  if (!suiteTable[s]) {
    process.stderr.write(
      `bench: unknown suite "${s}"; expected one of: ${Object.keys(suiteTable).join(', ')}\n`,
    );
    process.exit(2);
  }
}
const say = (msg) => process.stderr.write(`${msg}\n`);

/**
 * The corpus a size stands for: a generated tree; for size 1, a tree of one run (run.json and one task event),
 * with the event file named on the command line: tree rules read the rest of its `.team/runs` root, so a lone
 * file inside a big tree would measure the tree, not one file.
 */
function target(size) {
  const n = size === 1 ? 2 : size;
  const dir = join(benchDir, 'corpus', String(n));
  const t0 = performance.now();
  const meta = ensureCorpus(n, dir);
  if (!meta.reused) say(`generated ${meta.files} files in ${dir} (${Math.round(performance.now() - t0)} ms)`);
  const runsDir = join(dir, '.team', 'runs');
  const runs = readdirSync(runsDir, { withFileTypes: true }).filter((e) => e.isDirectory());
  const eventDirs = runs.map((r) => relative(benchDir, join(runsDir, r.name, 'events')));
  if (size === 1) {
    const first = readdirSync(join(benchDir, eventDirs[0])).sort()[0];
    const file = join(eventDirs[0], first);
    return { size, files: 1, paths: [file], eventDirs: [file], eventGlob: file, events: 1 };
  }
  return {
    size,
    files: meta.files,
    events: meta.events,
    paths: [relative(benchDir, dir)],
    eventDirs,
    eventGlob: `${relative(benchDir, runsDir)}/*/events/*.json`,
  };
}

/** Whether bin/ckpt.js will load the validate bundle (it falls back to unbundled modules when core is newer). */
function bundleState() {
  try {
    const made = statSync(join(repoRoot, 'apps', 'cli', 'dist', 'bundle', 'validate.cjs')).mtimeMs;
    const core = statSync(join(repoRoot, 'packages', 'core', 'dist', 'index.js')).mtimeMs;
    return made >= core ? 'bundled' : 'STALE bundle (core rebuilt after the CLI): unbundled modules';
  } catch {
    return 'no bundle: unbundled modules';
  }
}

// The installed package is packed from the same build and installed once per run.
const installed = suites.includes('ckpt-installed') ? installCli() : undefined;
process.on('exit', () => installed?.remove());
const ctx = { benchDir, repoRoot, ckptBin, installedBin: installed?.bin };
const bundleAtStart = bundleState();
const results = [];
const started = performance.now();
const env = machine();
say(`machine: ${env.cpu}, ${env.nproc} cores, node ${env.node}, load ${env.load}`);
for (const size of sizes) {
  const t = target(size);
  const cmds = suites
    .map((s) => ({ suite: s, cmd: suiteTable[s].command(t, ctx) }))
    .filter((c) => c.cmd !== undefined);
  const reps = Number(values.reps ?? (size >= 100_000 ? 3 : 5));
  // One untimed pass warms the page cache and checks every command succeeds on this corpus.
  for (const c of cmds) {
    const r = timeCommand(c.cmd, benchDir);
    if (r.code !== 0) {
      say(`bench: ${c.suite} failed on size ${size} (exit ${r.code}):\n${r.stderrTail}`);
      c.failed = true;
    }
  }
  const live = cmds.filter((c) => !c.failed);
  const samples = new Map(live.map((c) => [c.suite, []]));
  for (let rep = 0; rep < reps; rep++) {
    // Rotate the order each repetition so a slow moment on a shared machine does not always hit one suite.
    const order = live.map((_, i) => live[(i + rep) % live.length]);
    for (const c of order) samples.get(c.suite).push(timeCommand(c.cmd, benchDir));
  }
  for (const c of cmds) {
    const s = samples.get(c.suite) ?? [];
    results.push({
      size,
      files: t.files,
      suite: c.suite,
      label: suiteTable[c.suite].label,
      command: c.cmd.display,
      failed: Boolean(c.failed),
      reps: s.length,
      wall: median(s.map((x) => x.wall)),
      cpu: median(s.map((x) => x.cpu)),
      min: Math.min(...s.map((x) => x.wall)),
      max: Math.max(...s.map((x) => x.wall)),
      rss: median(s.map((x) => x.rss)),
    });
  }
  say(`size ${size}: done (${((performance.now() - started) / 1000).toFixed(0)} s so far)`);
}

const git = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();
const argv = process.argv.slice(2).join(' ');
const report = writeReport(results, {
  env: { ...env, git },
  fastPath:
    bundleAtStart === bundleState()
      ? bundleAtStart
      : `${bundleAtStart} at start, ${bundleState()} at the end`,
  command: `pnpm bench${argv ? ` ${argv}` : ''}`,
  seconds: (performance.now() - started) / 1000,
  out: values['no-write'] ? undefined : (values.out ?? join(repoRoot, 'BENCHMARKS.md')),
});
process.stdout.write(report);
