// The packed @ckpt/cli, installed the way a user installs it (npm, a fresh global prefix, offline, an empty
// cache), then run from a folder outside the repository: everything it needs is in the tarball.
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script, no types
import { packCli } from '../scripts/pack.mjs';
import { repoRoot, runCli } from './run-cli.js';

const cliDir = join(repoRoot, 'apps', 'cli');
const { version } = JSON.parse(readFileSync(join(cliDir, 'package.json'), 'utf8')) as { version: string };
let tmp: string;
let tgz: string;
let prefix: string;
let work: string;

function installed(args: readonly string[], cwd = work) {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  for (const k of ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'NODE_PATH', 'INIT_CWD']) delete env[k];
  env.PATH = `${join(prefix, 'bin')}:${process.env.PATH}`;
  const r = spawnSync('ckpt', args, { cwd, env, encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );

beforeAll(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ckpt-package-')));
  tgz = packCli(join(tmp, 'pack'));
  prefix = join(tmp, 'prefix');
  const npm = spawnSync(
    'npm',
    ['install', '--global', '--prefix', prefix, '--offline', '--cache', join(tmp, 'npm-cache'), tgz],
    // A registry nothing listens on: any request would fail the install.
    { encoding: 'utf8', env: { ...process.env, npm_config_registry: 'http://127.0.0.1:9/' } },
  );
  if (npm.status !== 0) throw new Error(`npm install failed:\n${npm.stdout}${npm.stderr}`);
  work = join(tmp, 'work');
  mkdirSync(work);
  cpSync(join(repoRoot, 'test-fixtures', 'sample-project'), join(work, 'proj'), { recursive: true });
  mkdirSync(join(work, 'proj', 'src', 'deep'), { recursive: true });
  // A field the schemas do not name: `--strict` reads the schema JSON itself, not only the validators.
  cpSync(join(repoRoot, 'test-fixtures', 'ulpi', 'v2-unknown-field'), join(work, 'unknown-field'), {
    recursive: true,
  });
}, 180_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the packed package', () => {
  it('should hold only the bin, the bundle, package.json and README.md: no tests, sources, maps or dependencies', () => {
    const pkgDir = join(prefix, 'lib', 'node_modules', '@ckpt', 'cli');
    const files = walk(pkgDir).map((f) => relative(pkgDir, f));
    expect(files).toContain('bin/ckpt.js');
    expect(files).toContain('dist/bundle/ckpt.js');
    expect(files).toContain('dist/bundle/validate.cjs');
    // validate's worker thread on many files, found beside the chunk that starts it.
    expect(files).toContain('dist/bundle/pool-worker.js');
    expect(files).toContain('dist/bundle/schemas/catalog.json');
    expect(files).toContain('dist/bundle/validators/team/task-event.cjs');
    expect(files).toContain('dist/bundle/static/app.js');
    const odd = files.filter(
      (f) =>
        !(
          ['package.json', 'README.md', 'bin/ckpt.js', 'bin/package.json'].includes(f) ||
          f.startsWith('dist/bundle/')
        ) || /\.test\.|\.map$|\.ts$|(^|\/)test\//.test(f),
    );
    expect(odd).toEqual([]);
    // No source map comment anywhere: it would point at files the package does not hold.
    const mapped = files.filter((f) => readFileSync(join(pkgDir, f), 'utf8').includes('sourceMappingURL='));
    expect(mapped).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(JSON.stringify(pkg)).not.toContain('workspace:');
    expect(readdirSync(pkgDir)).not.toContain('node_modules');
    expect(statSync(tgz).size).toBeGreaterThan(0);
  });
});

describe('pnpm install:cli', () => {
  it('should pack the CLI and install it with npm, passing its arguments on to npm', () => {
    const into = join(tmp, 'install-cli');
    const r = spawnSync(
      process.execPath,
      [join(cliDir, 'scripts', 'install-global.mjs'), '--prefix', into, '--cache', join(tmp, 'npm-cache')],
      { encoding: 'utf8', env: { ...process.env, npm_config_registry: 'http://127.0.0.1:9/' } },
    );
    expect({ code: r.status, stderr: r.stderr }).toMatchObject({ code: 0 });
    expect(r.stderr).toContain(`installed ckpt into ${into}/bin`);
    const v = spawnSync(join(into, 'bin', 'ckpt'), ['--version'], { encoding: 'utf8', cwd: tmp });
    expect(v.stdout).toBe(`${version}\n`);
  });
});

describe('the installed ckpt, run outside the repository', () => {
  it('should print its version', () => {
    expect(installed(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('should validate paths relative to the current folder, as the workspace build does', () => {
    for (const args of [
      ['validate', 'proj'],
      ['validate', 'proj/.ulpi/**/*.json'],
      ['validate', '--reporter', 'json', 'proj'],
      ['validate', '--strict', 'proj', 'unknown-field'],
    ]) {
      const r = installed(args);
      expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 1, stderr: '' });
      expect(r.stdout).toBe(runCli(args, { cwd: work }).stdout);
    }
    const here = installed(['validate', '.ulpi/runs'], join(work, 'proj'));
    expect(here.stdout).toContain('.ulpi/runs/add-oauth-20261129T071300Z.json:64:9');
    expect(installed(['validate', 'nope']).code).toBe(3);
  });

  it('should show status from a subfolder (walking up) and for a folder given relative to it', () => {
    const fromSub = installed(['status', '--json'], join(work, 'proj', 'src', 'deep'));
    expect(fromSub.code).toBe(0);
    expect(JSON.parse(fromSub.stdout)).toEqual(
      JSON.parse(runCli(['status', 'proj', '--json'], { cwd: work }).stdout),
    );
    expect(installed(['status', 'proj']).stdout).toMatch(/\d+ runs, \d+ need attention/);
    expect(installed(['resume', 'proj', '--run', 'ulpi/add-oauth']).stdout).toContain('run next');
    expect(installed(['schema', 'show', 'team/run']).stdout).toContain(
      '"$id": "https://ckpt.dev/schemas/team/run/',
    );
    mkdirSync(join(tmp, 'empty'));
    const empty = installed(['status'], join(tmp, 'empty'));
    expect(empty.code).toBe(3);
    expect(empty.stderr).toContain(`no runs in ${join(tmp, 'empty')}:`);
  });

  it('should serve the viewer: pages render and the static assets load', async () => {
    const child = spawn(join(prefix, 'bin', 'ckpt'), ['view', 'proj', '--port', '0'], { cwd: work });
    try {
      const url = await new Promise<string>((done, fail) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          if (out.includes('\n')) done(out.trim());
        });
        child.on('exit', (code) => fail(new Error(`ckpt view exited ${code}`)));
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<title>Runs of proj');
      const assets = [...html.matchAll(/(?:href|src)="(\/static\/[^"]+)"/g)].map((m) => m[1]!);
      expect(assets.length).toBeGreaterThanOrEqual(3);
      for (const a of [...assets, '/static/runs-page.js', '/static/run-page.js']) {
        const r = await fetch(new URL(a, url));
        expect({ a, status: r.status }).toEqual({ a, status: 200 });
        expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(0);
      }
      const api = (await (await fetch(`${url}api/runs`)).json()) as {
        runs: { id: string; dialect: string }[];
      };
      expect(api.runs.length).toBeGreaterThan(0);
      const run = api.runs[0]!;
      const runPage = await fetch(new URL(`runs/${run.dialect}/${encodeURIComponent(run.id)}`, url));
      expect(runPage.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
