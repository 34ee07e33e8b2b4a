#!/usr/bin/env node
// Records test-fixtures/agent-context/recorded-*/ from the real OpenCode++ code.
//
//   node apps/cli/scripts/agent-context-recorded/record.mjs <path to the original checkout> [scenario ...]
//
// The checkout is whut09/Code-Agent-plusplus (opencode-plusplus 0.1.1) with its dependencies installed
// (`npm install --ignore-scripts`). Each scenario makes a small git repository in a temporary folder, runs the
// original's own CLI (`tsx src/cli/index.ts ...`) on it, and copies the documents ckpt reads (task state,
// orchestrator state, iteration.json, decision.json) into the fixture folder, byte for byte. Nothing is
// re-implemented: the only stand-in is the coding agent itself, which is `--executor-command`, a small script
// that edits files or fails as the scenario needs (the original runs whatever command it is given).
// expected.json says what ran and what the original exited with; its findings are the ones ckpt must report.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = resolve(here, '../../../../test-fixtures/agent-context');

const orig = process.argv[2] ? resolve(process.argv[2]) : '';
if (!orig || !existsSync(join(orig, 'src/cli/index.ts'))) {
  console.error('usage: record.mjs <path to the original checkout> [scenario ...]');
  process.exit(2);
}
const tsx = join(orig, 'node_modules/.bin/tsx');
const cli = join(orig, 'src/cli/index.ts');
const commit = (() => {
  const r = spawnSync('git', ['-C', orig, 'rev-parse', 'HEAD'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : process.env.ORIGINAL_COMMIT || 'unknown';
})();

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'ckpt',
  GIT_AUTHOR_EMAIL: 'ckpt@example.invalid',
  GIT_COMMITTER_NAME: 'ckpt',
  GIT_COMMITTER_EMAIL: 'ckpt@example.invalid',
  GIT_AUTHOR_DATE: '2026-06-26T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-06-26T00:00:00Z',
};

const work = mkdtempSync(join(tmpdir(), 'ac-recorded-'));
const executor = join(work, 'executor.mjs');
// The coding agent's stand-in: `node executor.mjs <mode> <loop-counter file>`, run in the repository.
writeFileSync(
  executor,
  `import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
const [mode, counter] = process.argv.slice(2);
let n = 0;
try { n = Number(readFileSync(counter, 'utf8')); } catch {}
writeFileSync(counter, String(n + 1));
if (mode === 'fail') { console.error('agent crashed'); process.exit(2); }
if (mode === 'edit' || mode === 'edit-once' && n === 0) {
  appendFileSync('src/math.ts', '// loop ' + (n + 1) + '\\n');
}
if (mode === 'build-output') { mkdirSync('dist', { recursive: true }); writeFileSync('dist/math.js', 'export {};\\n'); }
if (mode === 'edit-update') {
  appendFileSync('src/math.ts', '// loop ' + (n + 1) + '\\n');
  spawnSync(${JSON.stringify(tsx)}, [${JSON.stringify(cli)}, 'update', '.'], { stdio: 'ignore' });
}
console.log('done ' + mode + ' ' + (n + 1));
`,
);

function sampleRepo(name) {
  const dir = join(work, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'test'), { recursive: true });
  writeFileSync(
    join(dir, 'src/math.ts'),
    'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  );
  writeFileSync(
    join(dir, 'test/math.test.ts'),
    "import { add } from '../src/math';\nif (add(1, 2) !== 3) throw new Error('add');\n",
  );
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'sample', version: '1.0.0', scripts: { test: 'node -e 0' } }, null, 2)}\n`,
  );
  for (const args of [
    ['init', '-q', '-b', 'main'],
    ['add', '-A'],
    ['commit', '-qm', 'init'],
  ]) {
    const r = spawnSync('git', args, { cwd: dir, env: gitEnv, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  }
  return dir;
}

function original(dir, args) {
  const r = spawnSync(tsx, [cli, ...args], { cwd: dir, env: gitEnv, encoding: 'utf8', timeout: 300_000 });
  if (r.error) throw r.error;
  return r.status;
}

const exec = (mode, counter) => `node ${executor} ${mode} ${counter}`;

/** `orchestrate` of the sample task with the scripted executor `command` (`{edit}`, ...) and more options. */
const orchestrate = (command, ...options) => [
  'orchestrate',
  'fix add rounding',
  '--executor',
  'codex',
  ...options,
  '--executor-command',
  command,
];

// Each scenario: the original's commands in order; `task` is the task text (its slug is the run id).
const scenarios = {
  'orchestrate-dry-run': {
    about: 'orchestrate --dry-run (mock executor, one loop): finalize',
    steps: [['orchestrate', 'fix add rounding', '--dry-run']],
  },
  'orchestrate-executor-failure': {
    about: 'orchestrate with an executor that exits 2 and edits nothing',
    steps: [orchestrate('{fail}')],
  },
  'orchestrate-max-loops': {
    about: 'orchestrate --max-loops 3 with an executor that edits src/math.ts every loop and runs no test',
    steps: [orchestrate('{edit}', '--max-loops', '3')],
  },
  'orchestrate-build-output': {
    about:
      'orchestrate --max-loops 2 with an executor that writes dist/math.js (build output: a forbidden change)',
    steps: [orchestrate('{build-output}', '--max-loops', '2')],
  },
  'orchestrate-rerun': {
    about:
      'orchestrate twice on the same task: dry run, then an executor that edits once (the second run rewrites the task state and iteration 001)',
    steps: [['orchestrate', 'fix add rounding', '--dry-run'], orchestrate('{edit-once}', '--max-loops', '2')],
  },
  'orchestrate-rerun-shorter': {
    about:
      'orchestrate --max-loops 3 with an edit each loop (three iterations), then a dry run of the same task: iteration 001 is rewritten, 002 and 003 are left from the first run',
    steps: [orchestrate('{edit}', '--max-loops', '3'), ['orchestrate', 'fix add rounding', '--dry-run']],
  },
  'orchestrate-rollback': {
    about:
      'orchestrate --checkpoint git-worktree with an executor that writes dist/math.js in the worktree: rollback',
    steps: [orchestrate('{build-output}', '--checkpoint', 'git-worktree')],
  },
  'orchestrate-edit-untested': {
    about:
      'update, then orchestrate --max-loops 2 with an executor that edits src/math.ts and refreshes the context (update) every loop, and runs no test',
    steps: [['update', '.'], orchestrate('{edit-update}', '--max-loops', '2')],
  },
  'task-id-fallback': {
    about:
      'run with task texts that leave no [a-z0-9]: the original names the run task-<base36 of its 32-bit hash> (ckpt taskSlug gives the same ids)',
    steps: [
      ['run', '日本語'],
      ['run', '!!!'],
    ],
  },
  'task-states': {
    about:
      'the task state machine through the CLI: one task taken from run to READY_FOR_REVIEW (run, loop preflight, an edit, loop after-edit on stale context, update, loop after-edit, a recorded passing test, loop after-edit with that trace), and three tasks left where a single loop puts them (handoff only, stale context, edited)',
    steps: [
      ['update', '.'],
      ['run', 'handoff only'],
      ['run', 'fix add rounding'],
      ['loop', 'fix add rounding', '--phase', 'preflight', '--write'],
      ['!edit'],
      ['loop', 'fix add rounding', '--phase', 'after-edit', '--write'],
      ['loop', 'check stale context', '--phase', 'after-edit', '--write'],
      ['update', '.'],
      ['loop', 'fix add rounding', '--phase', 'after-edit', '--write'],
      ['loop', 'check edited', '--phase', 'after-edit', '--write'],
      ['loop', 'fix add rounding', '--phase', 'repair', '--write'],
      [
        'trace',
        'run',
        'fix-add-rounding',
        '.',
        '--command',
        'npm run test -- test/math.test.ts',
        '--test',
        'test/math.test.ts',
      ],
      ['loop', 'fix add rounding', '--phase', 'after-edit', '--trace', 'fix-add-rounding', '--write'],
    ],
  },
};

// The documents ckpt reads, relative to .agent-context/.
function documents(root) {
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(root, p).replaceAll('\\', '/'));
    }
  };
  if (existsSync(root)) walk(root);
  return out
    .filter(
      (f) =>
        /^runs\/[^/]+\/state\.json$/.test(f) ||
        /^orchestrator\/[^/]+\/state\.json$/.test(f) ||
        /^runs\/[^/]+\/iterations\/[^/]+\/(iteration|decision)\.json$/.test(f),
    )
    .sort();
}

const chosen = process.argv.slice(3);
for (const [name, scenario] of Object.entries(scenarios)) {
  if (chosen.length && !chosen.includes(name)) continue;
  const dir = sampleRepo(name);
  const counter = join(work, `${name}.count`);
  const exits = [];
  for (const step of scenario.steps) {
    if (step[0] === '!edit') {
      writeFileSync(
        join(dir, 'src/math.ts'),
        'export function add(a: number, b: number): number {\n  return a + b + 0;\n}\n',
      );
      continue;
    }
    const args = step.map((a) => (/^\{[a-z-]+\}$/.test(a) ? exec(a.slice(1, -1), counter) : a));
    exits.push(original(dir, args));
  }
  const src = join(dir, '.agent-context');
  const docs = documents(src);
  const out = join(fixtures, `recorded-${name}`);
  rmSync(out, { recursive: true, force: true });
  for (const f of docs) {
    mkdirSync(dirname(join(out, '.agent-context', f)), { recursive: true });
    copyFileSync(join(src, f), join(out, '.agent-context', f));
  }
  const shown = scenario.steps
    .map((s) =>
      s[0] === '!edit'
        ? '(edit src/math.ts)'
        : `opencode-plusplus ${s.map((a) => (a.includes(' ') ? JSON.stringify(a) : a)).join(' ')}`,
    )
    .join('; ');
  const expected = {
    description: `Recorded from the original (whut09/Code-Agent-plusplus ${commit.slice(0, 7)}, opencode-plusplus 0.1.1) by apps/cli/scripts/agent-context-recorded/record.mjs: ${scenario.about}. Commands: ${shown}. Exit codes: ${exits.join(', ')}.`,
    args: [],
    findings: scenario.findings ?? [],
  };
  writeFileSync(join(out, 'expected.json'), `${JSON.stringify(expected, null, 2)}\n`);
  console.log(`recorded-${name}: ${docs.length} documents, exits ${exits.join(',')}`);
}
rmSync(work, { recursive: true, force: true });
