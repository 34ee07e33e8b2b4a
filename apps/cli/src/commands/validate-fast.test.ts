import { spawnSync } from 'node:child_process';
import {
  closeSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePlainValidateArgs } from './validate-fast.js';

describe('parsePlainValidateArgs', () => {
  it('should take paths and every validate option spelled out with a valid value', () => {
    expect(
      parsePlainValidateArgs([
        'a',
        '--reporter',
        'json',
        'b',
        '-d',
        'team',
        '--strict',
        '-q',
        '--color=never',
        '-r=sarif',
      ]),
    ).toBeUndefined(); // `-r=sarif` is not how commander spells a short option's value: hand it over
    expect(
      parsePlainValidateArgs([
        'a',
        '--reporter',
        'json',
        'b',
        '-d',
        'team',
        '--strict',
        '-q',
        '--color=never',
      ]),
    ).toEqual({
      paths: ['a', 'b'],
      flags: { reporter: 'json', dialect: 'team', strict: true, quiet: true, color: 'never' },
    });
    expect(parsePlainValidateArgs([])).toEqual({ paths: [], flags: { color: 'auto' } });
  });

  it('should hand anything unusual over to the full program', () => {
    for (const args of [
      ['--help'],
      ['-h'],
      ['--reporter'],
      ['--reporter', 'xml'],
      ['--dialect=nope'],
      ['--bogus'],
      ['-qs'],
      ['--', '-file'],
      ['--color'],
    ])
      expect(parsePlainValidateArgs(args), args.join(' ')).toBeUndefined();
  });
});

describe('ckpt validate output', () => {
  it('should stop quietly, without a stack trace, when the reader closes stdout early', () => {
    const bin = resolve(import.meta.dirname, '../../bin/ckpt.js');
    const fixtures = resolve(import.meta.dirname, '../../../../test-fixtures');
    const r = spawnSync(
      'sh',
      [
        '-c',
        `"${process.execPath}" "${bin}" validate "${fixtures}" --reporter json | head -c 10 > /dev/null`,
      ],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '' } },
    );
    expect(r.stderr).not.toContain('EPIPE');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('should write the whole report in order to a non-blocking stdout read slowly', () => {
    // A pool's worker threads (their stdio) or a parent process can leave a pipe non-blocking: a full pipe then
    // refuses writes (EAGAIN) until the reader catches up, and the report must still arrive whole, in order.
    const bin = resolve(import.meta.dirname, '../../bin/ckpt.js');
    const fixtures = resolve(import.meta.dirname, '../../../../test-fixtures');
    const env = { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '' };
    const direct = spawnSync(process.execPath, [bin, 'validate', fixtures, '--reporter', 'json'], {
      encoding: 'utf8',
      env,
      maxBuffer: 1 << 28,
    });
    expect(direct.stdout.length).toBeGreaterThan(1 << 18);
    const dir = mkdtempSync(join(tmpdir(), 'ckpt-nonblocking-'));
    try {
      // Building process.stdout over a pipe makes it non-blocking.
      writeFileSync(join(dir, 'nonblocking.cjs'), 'process.stdout;\n');
      // Reads 16 KiB, then sleeps 5 ms: the pipe fills, then drains while ckpt is still writing.
      writeFileSync(
        join(dir, 'slow-reader.cjs'),
        `const fs = require('node:fs');
const buf = Buffer.alloc(16384);
const pause = new Int32Array(new SharedArrayBuffer(4));
const out = [];
for (;;) {
  let n;
  try { n = fs.readSync(0, buf); } catch (e) { if (e.code !== 'EAGAIN') throw e; Atomics.wait(pause, 0, 0, 1); continue; }
  if (n === 0) break;
  out.push(Buffer.from(buf.subarray(0, n)));
  Atomics.wait(pause, 0, 0, 5);
}
fs.writeFileSync(process.argv[2], Buffer.concat(out));
`,
      );
      const r = spawnSync(
        'sh',
        [
          '-c',
          `"${process.execPath}" -r "${join(dir, 'nonblocking.cjs')}" "${bin}" validate "${fixtures}" --reporter json | "${process.execPath}" "${join(dir, 'slow-reader.cjs')}" "${join(dir, 'out.json')}"`,
        ],
        { encoding: 'utf8', env },
      );
      expect(r.stderr).toBe('');
      expect(readFileSync(join(dir, 'out.json'), 'utf8') === direct.stdout).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * A copy of the CLI as installed, under `tmp/cli` (no tsc modules beside the bundle: the bundle is what runs).
 * Returns its folder.
 */
function installedCopy(tmp: string): string {
  const cli = resolve(import.meta.dirname, '../..');
  const pkg = join(tmp, 'cli');
  cpSync(join(cli, 'bin'), join(pkg, 'bin'), { recursive: true });
  cpSync(join(cli, 'dist', 'bundle'), join(pkg, 'dist', 'bundle'), { recursive: true });
  cpSync(join(cli, 'package.json'), join(pkg, 'package.json'));
  return pkg;
}

describe('the code cache folder', () => {
  it('should drop the caches of removed copies and old leftovers when a new cache is written, and keep the rest', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ckpt-cache-prune-'));
    try {
      // An installed layout with a cache of its own.
      const pkg = installedCopy(tmp);
      const dir = join(tmp, 'cache', 'ckpt');
      mkdirSync(dir, { recursive: true });
      const key = (path?: string) =>
        `ckpt-v8-cache 1 ${process.version} ${process.arch} 1 2 3 4 5${path === undefined ? '' : ` ${encodeURIComponent(path)}`}\n`;
      const old = (name: string) => utimesSync(join(dir, name), new Date(0), new Date(0));
      writeFileSync(join(dir, 'gone.cjs-1.v8'), `${key(join(tmp, 'removed copy', 'validate.cjs'))}bytecode`);
      writeFileSync(join(dir, 'here.cjs-2.v8'), `${key(join(pkg, 'package.json'))}bytecode`);
      writeFileSync(join(dir, 'unknown-old.cjs-3.v8'), `${key()}bytecode`);
      old('unknown-old.cjs-3.v8');
      writeFileSync(join(dir, 'unknown-new.cjs-4.v8'), `${key()}bytecode`);
      writeFileSync(join(dir, 'left.cjs-5.v8.123.tmp'), 'half');
      old('left.cjs-5.v8.123.tmp');
      writeFileSync(join(dir, 'writing.cjs-6.v8.124.tmp'), 'half');
      writeFileSync(join(dir, 'not-ours.v8'), 'something else');
      const env: Record<string, string | undefined> = { ...process.env };
      for (const k of ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'CKPT_CODE_CACHE']) delete env[k];
      const fixtures = resolve(import.meta.dirname, '../../../../test-fixtures/sample-project');
      const r = spawnSync(
        process.execPath,
        [join(pkg, 'bin', 'ckpt.js'), 'validate', fixtures, '--reporter', 'json'],
        {
          encoding: 'utf8',
          env: { ...env, NO_COLOR: '1', XDG_CACHE_HOME: join(tmp, 'cache') },
        },
      );
      expect(r.stderr).toBe('');
      const left = readdirSync(dir);
      for (const name of ['gone.cjs-1.v8', 'unknown-old.cjs-3.v8', 'left.cjs-5.v8.123.tmp'])
        expect(left).not.toContain(name);
      for (const name of ['here.cjs-2.v8', 'unknown-new.cjs-4.v8', 'writing.cjs-6.v8.124.tmp', 'not-ours.v8'])
        expect(left).toContain(name);
      // The run's own caches were written, their keys naming their files.
      const own = left.filter((n) => n.startsWith('validate.cjs-'));
      expect(own).toHaveLength(1);
      expect(readFileSync(join(dir, own[0]!), 'latin1').split('\n')[0]).toContain(
        encodeURIComponent(join(pkg, 'dist', 'bundle', 'validate.cjs')),
      );
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('the code caches of runs on files and on trees', () => {
  it('should be kept apart, so that a one-file run only ever reads a cache a run on files wrote', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ckpt-cache-kinds-'));
    try {
      const pkg = installedCopy(tmp);
      const team = resolve(
        import.meta.dirname,
        '../../../../test-fixtures/team/approval-unknown-field/.team',
      );
      cpSync(team, join(tmp, 'tree', '.team'), { recursive: true });
      const runs = join(tmp, 'tree', '.team', 'runs');
      const [run] = readdirSync(runs).filter((n) => n !== 'current');
      const events = join(runs, run!, 'events');
      const oneFile = join(events, readdirSync(events).sort()[0]!);
      const dir = join(tmp, 'cache', 'ckpt');
      const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
      for (const k of ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'CKPT_CODE_CACHE']) delete env[k];
      const validate = (path: string) => {
        const r = spawnSync(
          process.execPath,
          [join(pkg, 'bin', 'ckpt.js'), 'validate', path, '--reporter', 'json'],
          { encoding: 'utf8', env: { ...env, XDG_CACHE_HOME: join(tmp, 'cache') } },
        );
        expect(r.stderr).toBe('');
        expect(r.stdout).toContain('"formatVersion"');
      };
      const caches = () =>
        Object.fromEntries(
          readdirSync(dir)
            .sort()
            .map((n) => [n, readFileSync(join(dir, n)).toString('base64')]),
        );
      const ofTrees = (names: string[]) => names.filter((n) => n.endsWith('.tree.v8'));
      const ofFiles = (names: string[]) => names.filter((n) => !n.endsWith('.tree.v8'));
      // A run on a tree (a unit: a large input, brief, checked under BRIEF_INPUT_FLAGS) writes the trees' caches of
      // what it ran, and no cache for runs on files.
      validate(join(tmp, 'tree'));
      const trees = caches();
      expect(ofFiles(Object.keys(trees))).toEqual([]);
      expect(Object.keys(trees).some((n) => /^validate\.cjs-[0-9a-f]+\.tree\.v8$/.test(n))).toBe(true);
      expect(Object.keys(trees).some((n) => /^task-event\.cjs-[0-9a-f]+\.tree\.v8$/.test(n))).toBe(true);
      // A one-file run writes its own beside them and leaves the trees' alone.
      validate(oneFile);
      const made = caches();
      const fileCaches = ofFiles(Object.keys(made));
      expect(fileCaches.some((n) => /^validate\.cjs-[0-9a-f]+\.v8$/.test(n))).toBe(true);
      expect(fileCaches.some((n) => /^task-event\.cjs-[0-9a-f]+\.v8$/.test(n))).toBe(true);
      for (const n of ofTrees(Object.keys(made))) expect(made[n]).toBe(trees[n]);
      // Each kind accepts its own caches, made and read under V8's default flags (a rejected cache would be written
      // anew): a tree of more runs than a brief input has too (LARGE_INPUT_FLAGS; two threads, the worker reading
      // the trees' caches).
      validate(join(tmp, 'tree'));
      validate(oneFile);
      const many = join(tmp, 'many', '.team', 'runs');
      for (let i = 0; i < 65; i++)
        cpSync(
          join(runs, run!),
          join(
            many,
            run!.replace(/.{6}$/, (t) => `${t.slice(0, 3)}${String(i).padStart(3, '0')}`),
          ),
          { recursive: true },
        );
      validate(join(tmp, 'many'));
      validate(oneFile);
      expect(caches()).toEqual(made);
      // After a rejection (as after a Node upgrade, or a run under other V8 flags) a run on a tree rewrites its own
      // cache only: the one-file cache is never one a tree's run wrote. The next one-file run rewrites it.
      const reject = (file: string) => {
        const good = readFileSync(file);
        const header = good.subarray(0, good.indexOf(10) + 1);
        const bad = Buffer.concat([header, Buffer.alloc(good.length - header.length, 7)]);
        writeFileSync(file, bad);
        return bad;
      };
      const oneFileCache = join(dir, fileCaches.find((n) => n.startsWith('validate.cjs-'))!);
      const treeCache = join(dir, ofTrees(Object.keys(made)).find((n) => n.startsWith('validate.cjs-'))!);
      const rejectedOne = reject(oneFileCache);
      validate(join(tmp, 'many'));
      validate(join(tmp, 'tree'));
      expect(readFileSync(oneFileCache).equals(rejectedOne)).toBe(true);
      validate(oneFile);
      expect(readFileSync(oneFileCache).equals(rejectedOne)).toBe(false);
      const rejectedTree = reject(treeCache);
      validate(oneFile);
      expect(readFileSync(treeCache).equals(rejectedTree)).toBe(true);
      validate(join(tmp, 'tree'));
      expect(readFileSync(treeCache).equals(rejectedTree)).toBe(false);
      // Rewritten, they are accepted again.
      const again = caches();
      validate(oneFile);
      validate(join(tmp, 'tree'));
      expect(caches()).toEqual(again);
      // A run on files that turns out large (a glob of 1,000 files) writes no cache: its functions are not a
      // one-file run's.
      const loose = join(tmp, 'loose');
      mkdirSync(loose);
      for (let i = 0; i < 1000; i++) writeFileSync(join(loose, `${i}.json`), '{}');
      rmSync(dir, { recursive: true });
      validate(join(loose, '*.json'));
      expect(readdirSync(join(tmp, 'cache'))).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("should hold a brief tree's functions even when V8 flushes the bytecode of those not run lately", () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ckpt-cache-flush-'));
    try {
      const pkg = installedCopy(tmp);
      const team = resolve(
        import.meta.dirname,
        '../../../../test-fixtures/team/approval-unknown-field/.team',
      );
      cpSync(team, join(tmp, 'tree', '.team'), { recursive: true });
      const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
      for (const k of ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'CKPT_CODE_CACHE']) delete env[k];
      // The trees' bundle cache a run writes, its size; `v8` flags on Node's command line.
      const written = (name: string, v8: string[]) => {
        const r = spawnSync(
          process.execPath,
          [...v8, join(pkg, 'bin', 'ckpt.js'), 'validate', join(tmp, 'tree'), '--reporter', 'json'],
          { encoding: 'utf8', env: { ...env, XDG_CACHE_HOME: join(tmp, name) } },
        );
        expect(r.stderr).toBe('');
        const dir = join(tmp, name, 'ckpt');
        const [bundle] = readdirSync(dir).filter((n) => /^validate\.cjs-[0-9a-f]+\.tree\.v8$/.test(n));
        return readFileSync(join(dir, bundle!)).length;
      };
      // Flushing at every collection, of everything not run since the last one (what a slow run's many
      // collections do to the start-up's functions): the cache made at the end would hold ~40% of them.
      const stressed = written('stressed', ['--stress-flush-code', '--stress-compaction']);
      expect(stressed).toBeGreaterThan(written('plain', []) * 0.95);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('the workspace modules (a stale bundle)', () => {
  it('should give the bundle report on large trees, brief and not (their flags set at run time)', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ckpt-stale-large-'));
    try {
      const cli = resolve(import.meta.dirname, '../..');
      // The CLI's layout without the fast path's bundle: bin/ckpt.js then runs dist/commands/validate-fast.js.
      const pkg = join(tmp, 'cli');
      cpSync(join(cli, 'bin'), join(pkg, 'bin'), { recursive: true });
      cpSync(join(cli, 'dist'), join(pkg, 'dist'), {
        recursive: true,
        filter: (src) => !src.endsWith(`${join('bundle', 'validate.cjs')}`),
      });
      cpSync(join(cli, 'package.json'), join(pkg, 'package.json'));
      symlinkSync(join(cli, 'node_modules'), join(pkg, 'node_modules'), 'dir');
      const fixture = resolve(
        import.meta.dirname,
        '../../../../test-fixtures/team/approval-unknown-field/.team',
      );
      const brief = join(tmp, 'brief');
      cpSync(fixture, join(brief, '.team'), { recursive: true });
      const runs = join(brief, '.team', 'runs');
      const [run] = readdirSync(runs).filter((n) => n !== 'current');
      // More runs than a brief input has (LARGE_INPUT_FLAGS, a worker beside this thread).
      const large = join(tmp, 'large');
      cpSync(fixture, join(large, '.team'), { recursive: true });
      for (let i = 0; i < 65; i++)
        cpSync(join(runs, run!), join(large, '.team', 'runs', `${run}-${String(i).padStart(3, '0')}`), {
          recursive: true,
        });
      const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
      for (const k of ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY']) delete env[k];
      const validate = (bin: string, path: string) =>
        spawnSync(process.execPath, [bin, 'validate', path, '--reporter', 'json'], {
          encoding: 'utf8',
          env,
          maxBuffer: 1 << 26,
        });
      for (const tree of [brief, large]) {
        const bundled = validate(join(cli, 'bin', 'ckpt.js'), tree);
        const stale = validate(join(pkg, 'bin', 'ckpt.js'), tree);
        expect(stale.stderr).toBe('');
        expect(stale.stdout.length).toBeGreaterThan(1000);
        expect(stale.stdout === bundled.stdout).toBe(true);
        expect(stale.status).toBe(bundled.status);
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('the fast path pool', () => {
  const cli = resolve(import.meta.dirname, '../..');
  const bin = join(cli, 'bin', 'ckpt.js');

  it('should start its workers from bin/ckpt.js on the bundle, loaded and waiting for a job', async () => {
    const { Worker } = await import('node:worker_threads');
    const w = new Worker(bin, {
      argv: ['--ckpt-pool-worker', join(cli, 'dist', 'bundle', 'validate.cjs')],
      stdout: true,
    });
    try {
      const first = await new Promise((res, rej) => {
        w.once('message', res);
        w.once('error', rej);
        w.once('exit', (code) => rej(new Error(`the worker exited (${code}) before it was loaded`)));
      });
      expect(first).toBe('loaded');
    } finally {
      await w.terminate();
    }
  });

  it('should not load node:worker_threads for one file (no worker: its modules would only add to start-up)', () => {
    const r = oneFileModules(bin, 'worker_threads', 'json', 'pipe', { NO_COLOR: '1' });
    expect(r.stdout).toContain('"formatVersion"');
    expect(r.loaded).toBe(0);
  });

  it('should not load node:tty for one file written to /dev/null (it is never a terminal)', () => {
    const out = openSync('/dev/null', 'w');
    try {
      for (const reporter of ['json', 'text']) {
        const r = oneFileModules(bin, 'tty', reporter, out, { NO_COLOR: undefined, FORCE_COLOR: undefined });
        expect(r.status).toBe(0);
        expect(r.loaded).toBe(0);
      }
    } finally {
      closeSync(out);
    }
  });

  it('should end the process with its exit code once the report is written (no stream was made for it)', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ckpt-fast-exit-'));
    try {
      const preload = join(tmp, 'exit.cjs');
      writeFileSync(
        preload,
        'const exit = process.exit;\nprocess.exit = (code) => { process._rawDebug("exit(" + code + ")"); return exit.call(process, code); };\n',
      );
      const runs = resolve(import.meta.dirname, '../../../../test-fixtures/sample-project/.team/runs');
      const run = readdirSync(runs).find((name) => /^[0-9]{8}T/.test(name))!;
      const broken = join(tmp, '.team', 'runs', run, 'run.json');
      mkdirSync(join(broken, '..'), { recursive: true });
      writeFileSync(broken, '{');
      for (const [file, code, reporter] of [
        [join(runs, run, 'run.json'), 0, 'json'],
        [broken, 1, 'json'],
        [broken, 1, 'text'],
        [join(tmp, 'missing.json'), 3, 'json'],
      ] as const) {
        const r = spawnSync(
          process.execPath,
          ['-r', preload, bin, 'validate', file, '--reporter', reporter],
          {
            encoding: 'utf8',
            env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '' },
          },
        );
        expect(r.status, file).toBe(code);
        expect(r.stderr.trim().split('\n').at(-1), file).toBe(`exit(${code})`);
        if (code === 1) expect(r.stdout).toContain('parse/invalid-json');
        if (code !== 3 && reporter === 'json') expect(JSON.parse(r.stdout).summary.files).toBeGreaterThan(0);
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('should give the report of one thread on a tree of many runs', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ckpt-fast-pool-'));
    try {
      // Enough runs for the pool at its thresholds (a worker and this thread), some sorting around the first.
      copyTeamRuns(tmp, 150, (run, i) => `${run}${i % 2 ? '-' : '.'}${String(i).padStart(3, '0')}`);
      const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
      for (const k of ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY']) delete env[k];
      const report = (threads: string) =>
        spawnSync(process.execPath, [bin, 'validate', tmp, '--reporter', 'json'], {
          encoding: 'utf8',
          env: { ...env, CKPT_THREADS: threads },
          maxBuffer: 1 << 28,
        });
      const one = report('1');
      const pooled = report('2');
      expect(pooled.stderr).toBe('');
      expect(one.stdout.length).toBeGreaterThan(10_000);
      expect(pooled.stdout === one.stdout).toBe(true);
      expect(pooled.status).toBe(one.status);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('should give the report of one thread on a brief tree, with the worker it starts at once for a directory', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ckpt-fast-early-'));
    try {
      // 25 runs: brief, and two threads once a worker has started (VALIDATE_MIN_UNITS_PER_THREAD_STARTED).
      const { runs, run } = copyTeamRuns(tmp, 24, (run, i) => `${run}-${String(i).padStart(2, '0')}`);
      const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
      for (const k of ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'CKPT_THREADS']) delete env[k];
      const report = (extra: Record<string, string>, ...args: string[]) =>
        spawnSync(process.execPath, [bin, 'validate', ...args, '--reporter', 'json'], {
          encoding: 'utf8',
          env: { ...env, ...extra },
          maxBuffer: 1 << 28,
        });
      const one = report({ CKPT_THREADS: '1' }, tmp);
      expect(one.stdout.length).toBeGreaterThan(10_000);
      for (const args of [[tmp], [join(tmp, 'missing'), tmp], [join(runs, run, 'run.json'), tmp]]) {
        const pooled = report({}, ...args);
        const alone = report({ CKPT_THREADS: '1' }, ...args);
        expect(pooled.stderr).toBe(alone.stderr);
        expect(pooled.stdout === alone.stdout).toBe(true);
        expect(pooled.status).toBe(alone.status);
      }
      expect(report({}, tmp).stdout === one.stdout).toBe(true);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

/**
 * A team project in `tmp`: the approval-unknown-field fixture, its run copied `copies` more times under the names
 * `name` gives. Returns the runs folder and the fixture's run name.
 */
/**
 * A one-file `ckpt validate` (`bin`: bin/ckpt.js) of the sample project's run.json with `--reporter <reporter>`, its stdout to `stdout`
 * (a descriptor, or 'pipe' to read it), and how many times Node's built-in module `module` was loaded by its exit.
 */
function oneFileModules(
  bin: string,
  module: string,
  reporter: string,
  stdout: 'pipe' | number,
  env: Record<string, string | undefined>,
): { status: number | null; stdout: string; loaded: number } {
  const tmp = mkdtempSync(join(tmpdir(), 'ckpt-fast-modules-'));
  try {
    const runs = resolve(import.meta.dirname, '../../../../test-fixtures/sample-project/.team/runs');
    const run = readdirSync(runs).find((name) => /^[0-9]{8}T/.test(name));
    const preload = join(tmp, 'modules.cjs');
    writeFileSync(
      preload,
      `process.on('exit', () => process._rawDebug(process.moduleLoadList.filter((m) => m === 'NativeModule ${module}').length));\n`,
    );
    const r = spawnSync(
      process.execPath,
      ['-r', preload, bin, 'validate', join(runs, run!, 'run.json'), '--reporter', reporter],
      {
        encoding: 'utf8',
        stdio: ['ignore', stdout, 'pipe'],
        env: { ...process.env, GITHUB_ACTIONS: '', ...env },
      },
    );
    return { status: r.status, stdout: r.stdout ?? '', loaded: Number(r.stderr.trim().split('\n').at(-1)) };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function copyTeamRuns(tmp: string, copies: number, name: (run: string, i: number) => string) {
  const fixture = resolve(import.meta.dirname, '../../../../test-fixtures/team/approval-unknown-field/.team');
  const runs = join(tmp, '.team', 'runs');
  cpSync(fixture, join(tmp, '.team'), { recursive: true });
  const run = readdirSync(runs).find((n) => n !== 'current')!;
  for (let i = 0; i < copies; i++) cpSync(join(runs, run), join(runs, name(run, i)), { recursive: true });
  return { runs, run };
}
