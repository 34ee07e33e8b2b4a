#!/usr/bin/env node
// The GitHub Action run from a tag of this repository, as the runner runs it (action-runner.mjs), in a scratch
// git repository with a good and a bad checkpoint file. The action is the tree of a commit (`git archive`, as
// the runner downloads a tag: no dist/, no node_modules), HEAD by default, or the working tree with --worktree.
// Local mode runs with npm pointed at a dead registry (http://127.0.0.1:9) and offline: it must need none.
// --registry=<url> --version=<v>: the registry mode installs that version from that registry (rehearse.sh).
// Prints one "ok" line per check and "action: N passed, N failed".
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAction } from './action-runner.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const work = mkdtempSync(join(tmpdir(), 'ckpt-action-'));
let passed = 0;
let failed = 0;
function check(what, ok, detail) {
  if (ok) {
    passed++;
    console.log(`ok - ${what}`);
  } else {
    failed++;
    console.log(`not ok - ${what}`);
    if (detail) console.log(`  ${String(detail).replace(/\n/g, '\n  ')}`);
  }
}

try {
  // The action as a tag of this repository delivers it.
  const actionDir = join(work, 'actions/ckpt-dev/ckpt/v0.0.0');
  mkdirSync(actionDir, { recursive: true });
  if (process.argv.includes('--worktree')) {
    const files = execFileSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], { cwd: repo })
      .toString()
      .split('\0')
      .filter(Boolean);
    for (const f of files) {
      try {
        cpSync(join(repo, f), join(actionDir, f));
      } catch {} // listed but deleted in the working tree
    }
  } else execFileSync('sh', ['-c', `git -C "${repo}" archive HEAD | tar -x -C "${actionDir}"`]);

  // The user's repository, checked out.
  const workspace = join(work, 'workspace');
  const good = '.team';
  cpSync(join(repo, 'test-fixtures/team/valid-build-run/.team'), join(workspace, good), { recursive: true });
  const bad = '.ulpi/runs/add-oauth.json';
  mkdirSync(join(workspace, '.ulpi/runs'), { recursive: true });
  writeFileSync(join(workspace, bad), '{\n  "schemaVersion": 2,\n  "id": 5\n}\n');
  writeFileSync(join(workspace, 'README.md'), '# a project with agent runs\n');
  const git = (...args) => execFileSync('git', args, { cwd: workspace, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=ci', '-c', 'user.email=ci@localhost', 'commit', '-qm', 'checkpoints');

  const cacheDir = join(work, 'cache');
  const deadRegistry = {
    PATH: process.env.PATH,
    HOME: join(work, 'home'),
    npm_config_registry: 'http://127.0.0.1:9',
    npm_config_offline: 'true',
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_update_notifier: 'false',
  };
  mkdirSync(deadRegistry.HOME);
  const run = (inputs, env = deadRegistry) =>
    runAction({ actionDir, workspace, inputs, env, tempDir: join(work, 'temp'), cacheDir });
  const step = (r, name) => r.steps.find((s) => s.name === name);
  mkdirSync(join(work, 'temp'));

  // 1. The good file only: installs the bundled CLI with no registry, passes, and saves the cache.
  const r1 = run({ paths: good });
  const install1 = step(r1, 'Install ckpt');
  check(
    'local mode installs the CLI from the action checkout with the registry unreachable',
    install1?.code === 0,
    install1?.stderr,
  );
  check(
    'the installed ckpt is the bundled one',
    step(r1, 'ckpt version')?.stdout.includes(join(work, 'temp/runner-temp/ckpt-cli/bin/ckpt')),
    step(r1, 'ckpt version')?.stdout,
  );
  check(
    'a valid tree: the job succeeds with exit-code 0',
    r1.success && r1.outputs['exit-code'] === '0',
    r1.log,
  );
  check('a valid tree: the step summary says so', r1.summary.includes('### ✅ ckpt validate'), r1.summary);
  check('a valid tree: no annotation', !r1.log.includes('::error'), r1.log);
  check(
    "the cache key names the action's ref and its bundle's content",
    /cache miss for ckpt-cli-Linux-local-ckpt-dev\/ckpt@v0\.0\.0-[0-9a-f]{16}$/.test(
      step(r1, 'actions/cache@v4')?.note ?? '',
    ),
    step(r1, 'actions/cache@v4')?.note,
  );
  check('setup-node is simulated (noted)', /simulated: kept Node/.test(r1.steps[0].note), r1.steps[0].note);

  // 2. The whole repository: the cache hit skips the install, the bad file fails the step with an annotation.
  const r2 = run({});
  check(
    'the second run restores the CLI from the cache',
    /cache hit/.test(step(r2, 'actions/cache@v4')?.note ?? ''),
  );
  check('a cache hit skips the install', step(r2, 'Install ckpt')?.ran === false);
  const validate2 = step(r2, 'ckpt validate');
  check('a bad file fails the job with exit-code 1', !r2.success && r2.outputs['exit-code'] === '1', r2.log);
  check(
    'the bad file is annotated at its line with the finding code',
    /^::error file=\.ulpi\/runs\/add-oauth\.json,line=\d+,col=\d+.*title=ckpt [a-z-]+\/[a-z-]+::/m.test(
      validate2?.stdout ?? '',
    ),
    validate2?.stdout,
  );
  check('the good files get no annotation', !/::(error|warning) file=\.team/.test(validate2?.stdout ?? ''));
  check(
    'the step summary has the failure and the finding table',
    r2.summary.includes('### ❌ ckpt validate') && r2.summary.includes('add-oauth.json'),
    r2.summary,
  );

  // 3. Inputs: dialect, strict, reporter and output-file reach ckpt.
  const r3 = run({
    paths: '.ulpi\n',
    dialect: 'ulpi',
    strict: 'true',
    reporter: 'sarif',
    'output-file': 'ckpt.sarif',
  });
  const sarif = JSON.parse(readFileSync(join(workspace, 'ckpt.sarif'), 'utf8'));
  check(
    'sarif to output-file, exit-code 1',
    r3.outputs['exit-code'] === '1' && sarif.version === '2.1.0',
    r3.log,
  );
  check(
    'paths one per line, dialect ulpi: the ulpi file has results',
    sarif.runs[0].results.length > 0 &&
      sarif.runs[0].results.every((x) =>
        x.locations[0].physicalLocation.artifactLocation.uri.includes('.ulpi/'),
      ),
    JSON.stringify(sarif.runs[0].results.slice(0, 3)),
  );
  const r4 = run({ strict: 'yes' });
  check(
    'a bad input is refused with exit-code 2',
    r4.outputs['exit-code'] === '2' && /input strict must be/.test(r4.log),
  );

  // 4. Registry mode: a version installs @ckpt/cli from the registry. With --registry=<url> --version=<v> (the
  // release rehearsal's verdaccio and what it published) the install must work; without, the registry is the
  // dead one and the install must fail, which shows the action went to the registry.
  const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const { npm_config_offline, ...online } = { ...deadRegistry, npm_config_fetch_retries: '0' };
  if (arg('registry')) {
    const version = arg('version');
    const r5 = run({ version }, { ...online, npm_config_registry: arg('registry') });
    const install5 = step(r5, 'Install ckpt');
    check(`version: ${version} installs @ckpt/cli from the registry`, install5?.code === 0, install5?.stderr);
    check(
      `the installed ckpt is ${version}`,
      step(r5, 'ckpt version')?.stdout.startsWith(`ckpt ${version} from `),
      step(r5, 'ckpt version')?.stdout,
    );
    check(
      'registry mode: the bad file fails the job with exit-code 1',
      r5.outputs['exit-code'] === '1',
      r5.log,
    );
  } else {
    const r5 = run({ version: '0.1.0' }, online);
    const install5 = step(r5, 'Install ckpt');
    check(
      'version: 0.1.0 installs from the registry (the dead one here: the install fails, validate is skipped)',
      install5?.code !== 0 &&
        /127\.0\.0\.1:9|ECONNREFUSED/.test(install5?.stderr ?? '') &&
        !step(r5, 'ckpt validate')?.ran,
      install5?.stderr,
    );
  }
} catch (e) {
  failed++;
  console.log(`not ok - the action run threw: ${e.stack ?? e}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`action: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
