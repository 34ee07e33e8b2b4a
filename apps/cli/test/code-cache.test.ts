// bin/ckpt.js compiles the validate fast path's bundle with a V8 code cache kept in <XDG_CACHE_HOME>/ckpt/.
// These tests run a copy of the installed layout (bin/, dist/bundle/, package.json: no tsc modules beside it, so
// the bundle is always the one run) with a cache folder of their own.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './run-cli.js';

const cliDir = join(repoRoot, 'apps', 'cli');
const fixture = join(repoRoot, 'test-fixtures', 'sample-project');
let tmp: string;
let pkg: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'ckpt-code-cache-'));
  pkg = join(tmp, 'cli');
  cpSync(join(cliDir, 'bin'), join(pkg, 'bin'), { recursive: true });
  cpSync(join(cliDir, 'dist', 'bundle'), join(pkg, 'dist', 'bundle'), { recursive: true });
  cpSync(join(cliDir, 'package.json'), join(pkg, 'package.json'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function validate(cache: string, extraEnv: Record<string, string> = {}) {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'CKPT_CODE_CACHE']) delete env[k];
  Object.assign(env, { NO_COLOR: '1', XDG_CACHE_HOME: cache, ...extraEnv });
  const r = spawnSync(
    process.execPath,
    [join(pkg, 'bin', 'ckpt.js'), 'validate', '--reporter', 'json', '.'],
    { cwd: fixture, env: env as NodeJS.ProcessEnv, encoding: 'utf8' },
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const cacheFiles = (cache: string) => {
  try {
    return readdirSync(join(cache, 'ckpt'));
  } catch {
    return [];
  }
};

describe('the validate bundle code cache', () => {
  it('should be written by the first run and give the same report on the next', () => {
    const cache = join(tmp, 'first');
    const first = validate(cache);
    expect(first.code).toBe(1); // the sample project has error findings
    expect(first.stderr).toBe('');
    // The bundle's, and those of the validators the sample project needed: the caches of runs on trees.
    const files = cacheFiles(cache);
    expect(files.filter((f) => /^validate\.cjs-[0-9a-f]+\.tree\.v8$/.test(f))).toHaveLength(1);
    expect(files.some((f) => /^task-event\.cjs-[0-9a-f]+\.tree\.v8$/.test(f))).toBe(true);
    expect(files.some((f) => /^state-env\.cjs-[0-9a-f]+\.tree\.v8$/.test(f))).toBe(true);
    const written = files.map((f) => readFileSync(join(cache, 'ckpt', f)));
    for (const w of written) expect(w.toString('latin1', 0, 40)).toMatch(/^ckpt-v8-cache 1 v\d+/);
    const second = validate(cache);
    expect(second).toEqual(first);
    // Caches that were used are not rewritten.
    expect(cacheFiles(cache)).toEqual(files);
    files.forEach((f, i) => expect(readFileSync(join(cache, 'ckpt', f)).equals(written[i]!)).toBe(true));
  });

  it('should never run code from an older bundle: same size and mtime, other content', () => {
    const cache = join(tmp, 'stale');
    const bundle = join(pkg, 'dist', 'bundle', 'validate.cjs');
    // Whole seconds, which utimes sets exactly.
    const when = Math.floor(statSync(bundle).mtimeMs / 1000);
    utimesSync(bundle, when, when);
    const before = validate(cache);
    expect(before.stdout).toContain('"formatVersion"');
    expect(cacheFiles(cache).length).toBeGreaterThan(1);
    const text = readFileSync(bundle, 'utf8');
    // The JSON reporter's key, as it writes it: the same length, other bytes.
    expect(text).toContain('"formatVersion": ');
    try {
      writeFileSync(bundle, text.replace('"formatVersion": ', '"formatVersiom": '));
      utimesSync(bundle, when, when);
      expect(statSync(bundle).size).toBe(Buffer.byteLength(text));
      const after = validate(cache);
      expect(after.stdout).toContain('"formatVersiom"');
      expect(after.stdout).not.toContain('"formatVersion"');
    } finally {
      writeFileSync(bundle, text);
    }
  });

  it('should fall back silently when the cache folder cannot be made or the cache is damaged', () => {
    const reference = validate(join(tmp, 'reference'));
    // XDG_CACHE_HOME is a file: no folder can be made under it.
    const blocked = join(tmp, 'blocked');
    writeFileSync(blocked, 'not a folder');
    expect(validate(blocked)).toEqual(reference);
    expect(readFileSync(blocked, 'utf8')).toBe('not a folder');
    // The right key, then bytes V8 rejects: compiled anew, and the cache rewritten.
    const damaged = join(tmp, 'damaged');
    validate(damaged);
    const file = join(damaged, 'ckpt', cacheFiles(damaged).find((f) => f.startsWith('validate.cjs-'))!);
    const good = readFileSync(file);
    const header = good.subarray(0, good.indexOf(10) + 1);
    writeFileSync(file, Buffer.concat([header, Buffer.alloc(good.length - header.length, 7)]));
    expect(validate(damaged)).toEqual(reference);
    expect(
      readFileSync(file)
        .subarray(header.length)
        .every((b) => b === 7),
    ).toBe(false);
    // CKPT_CODE_CACHE=0 turns the cache off.
    const off = join(tmp, 'off');
    expect(validate(off, { CKPT_CODE_CACHE: '0' })).toEqual(reference);
    expect(cacheFiles(off)).toEqual([]);
  });
});
