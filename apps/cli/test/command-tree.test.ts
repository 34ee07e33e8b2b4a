import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allNodes, type CommandNode, commandTree, pathKey } from '../src/commands/tools/command-tree.js';
import { buildProgram } from '../src/main.js';
import { cliPath, runCli } from './run-cli.js';

// The tree the completion scripts are generated from: a command added tomorrow is checked tomorrow.
const tree = commandTree(buildProgram());
const nodes = allNodes(tree);
const leaves = nodes.filter((n) => n.subcommands.length === 0);

/**
 * The `ckpt ulpi` verbs and `ckpt migrate` mirror the original checkpoint.mjs (README "Exit codes"): a usage or
 * parse error exits 1 there, a refusal 2.
 */
const mirrorsOriginal = (n: CommandNode) => n.path[0] === 'ulpi' || n.path[0] === 'migrate';

const work = mkdtempSync(join(tmpdir(), 'ckpt-tree-'));
const missing = join(work, 'no-such-path');
const aFile = join(work, 'a-file.json');
const aDir = join(work, 'a-dir');
writeFileSync(aFile, '{}\n');
mkdirSync(aDir);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * How each command is given a path, and which kind it wants. Every command of the tree is in this table or in
 * NO_PATH, so a new command has to say how its input is checked.
 */
const PATH_INPUT: Record<string, { args: (p: string) => string[]; wants: 'file' | 'dir' }> = {
  '/validate': { args: (p) => [p], wants: 'file' },
  '/status': { args: (p) => [p], wants: 'dir' },
  '/list': { args: (p) => [p], wants: 'dir' },
  '/resume': { args: (p) => [p, '--run', 'x'], wants: 'dir' },
  '/history': { args: (p) => [p, '--run', 'x'], wants: 'dir' },
  '/view': { args: (p) => [p, '--port', '0'], wants: 'dir' },
  '/agent-context/status': { args: (p) => [p], wants: 'dir' },
  '/agent-context/verify': { args: (p) => [p], wants: 'dir' },
  '/agent-context/fingerprint': { args: (p) => [p], wants: 'file' },
  '/resumable/status': { args: (p) => [p], wants: 'dir' },
  '/resumable/lock': { args: (p) => ['--run', p], wants: 'dir' },
  '/resumable/unlock': { args: (p) => ['--run', p], wants: 'dir' },
  '/resumable/check': { args: (p) => ['--run', p, 'S1', 'KEY'], wants: 'dir' },
  '/resumable/stage-done': { args: (p) => ['--run', p, 'S1'], wants: 'dir' },
  '/resumable/log': { args: (p) => ['--run', p, 'message'], wants: 'dir' },
  '/resumable/finalize': { args: (p) => ['--run', p], wants: 'dir' },
  '/doctor': { args: (p) => [p], wants: 'dir' },
};
/** Commands that read no path the user names (a run id, a kind, a shell), or whose paths the ulpi suite checks. */
const NO_PATH = new Set([
  '/schema/list',
  '/schema/show',
  '/team/status',
  '/team/start-run',
  '/team/start-task',
  '/team/finish-task',
  '/team/retry',
  '/team/approve',
  '/resumable/init',
  '/completion',
]);

/** `ckpt: <what>: <why>` on one line, then at most a `hint:` line; never errno words or a stack. */
function expectOneMessage(stderr: string, what: string) {
  const lines = stderr.trimEnd().split('\n');
  expect(lines[0], what).toMatch(/^ckpt: \S/);
  expect(lines.length, `${what}: ${stderr}`).toBeLessThanOrEqual(2);
  if (lines[1] !== undefined) expect(lines[1], what).toMatch(/^hint: \S/);
  expect(stderr, what).not.toMatch(/\bE[A-Z]{3,}\b|internal error|\n\s+at /);
}

describe('the command tree', () => {
  it('should classify every command that reads a path', () => {
    for (const n of leaves.filter((x) => !mirrorsOriginal(x))) {
      const key = pathKey(n.path);
      expect(key in PATH_INPUT || NO_PATH.has(key), `${key} is in PATH_INPUT or NO_PATH`).toBe(true);
    }
  });

  it('should refuse an unknown subcommand with exit 2 (1 under ckpt ulpi)', () => {
    for (const n of nodes.filter((x) => x.subcommands.length > 0)) {
      const r = runCli([...n.path, 'no-such-verb'], { cwd: work });
      const what = `ckpt ${n.path.join(' ')} no-such-verb`;
      expect([what, r.code]).toEqual([what, mirrorsOriginal(n) ? 1 : 2]);
      expectOneMessage(r.stderr, what);
    }
  });

  it('should refuse an unknown flag with exit 2 (1 for the verbs that mirror the original)', () => {
    for (const n of leaves) {
      const r = runCli([...n.path, '--no-such-flag'], { cwd: work });
      const what = `ckpt ${n.path.join(' ')} --no-such-flag`;
      if (mirrorsOriginal(n)) {
        // The original reads an unknown flag as a word (a missing argument, a file named `--no-such-flag`):
        // its own codes, which the ulpi suite checks; here only that nothing crashes.
        expect([what, r.code]).not.toEqual([what, 70]);
        continue;
      }
      expect([what, r.code]).toEqual([what, 2]);
      expectOneMessage(r.stderr, what);
    }
  });

  it('should refuse a missing argument or required option with exit 2, naming it', () => {
    const program = buildProgram();
    for (const n of leaves.filter((x) => !mirrorsOriginal(x))) {
      const cmd = n.path.reduce((c, name) => c.commands.find((x) => x.name() === name)!, program);
      const required = [
        ...cmd.registeredArguments.filter((a) => a.required).map((a) => a.name()),
        ...cmd.options.filter((o) => o.mandatory).map((o) => o.long!),
      ];
      if (required.length === 0) continue;
      const r = runCli(n.path as string[], { cwd: work, env: { OPENCODE_CONFIG_DIR: work } });
      const what = `ckpt ${n.path.join(' ')}`;
      expect([what, r.code]).toEqual([what, 2]);
      expectOneMessage(r.stderr, what);
      expect(r.stderr.split('\n')[0], what).toContain(required[0]!);
    }
    const migrate = runCli(['migrate'], { cwd: work });
    expect(migrate.code).toBe(1);
    expectOneMessage(migrate.stderr, 'ckpt migrate');
  });

  it('should exit 3 for a missing path, and for a path of the wrong kind, with one message', () => {
    for (const [key, input] of Object.entries(PATH_INPUT)) {
      const path = key.slice(1).split('/');
      const wrongKind = input.wants === 'file' ? aDir : aFile;
      for (const p of input.wants === 'file' && key === '/validate' ? [missing] : [missing, wrongKind]) {
        const r = runCli([...path, ...input.args(p)], { cwd: work });
        const what = `ckpt ${path.join(' ')} ${input.args(p).join(' ')}`;
        expect([what, r.code]).toEqual([what, 3]);
        expectOneMessage(r.stderr, what);
      }
    }
  });

  it('should exit 3 for a file it may not read', () => {
    if (process.getuid?.() === 0) return; // root reads any mode; the wrong-kind paths above stand in for it
    const locked = join(work, 'locked.json');
    writeFileSync(locked, '{}\n', { mode: 0 });
    const r = runCli(['agent-context', 'fingerprint', locked], { cwd: work });
    expect(r.code).toBe(3);
    expectOneMessage(r.stderr, 'fingerprint of an unreadable file');
    expect(r.stderr).toContain('permission denied');
  });

  it('should exit 4 for a write that cannot land (here a file size limit), in the ulpi verbs too', () => {
    for (const args of [
      ['team', 'start-run', '--profile', 'new', '--stage', 'build'],
      ['ulpi', 'init', '.ulpi/runs/w.json', '--task', 't'],
    ]) {
      const r = spawnSync(
        '/bin/sh',
        ['-c', 'ulimit -f 0 && exec "$0" "$@"', process.execPath, cliPath, ...args],
        {
          cwd: work,
          encoding: 'utf8',
          env: { ...process.env, NO_COLOR: '1' },
          timeout: 20_000,
        },
      );
      const what = `ckpt ${args.join(' ')}`;
      expect([what, r.status]).toEqual([what, 4]);
      expectOneMessage(r.stderr, what);
      expect(r.stderr).toMatch(/^ckpt: could not write /);
    }
  });

  it('should end every --help with examples and mark every required option', () => {
    for (const n of nodes) {
      const r = runCli([...n.path, '--help'], { cwd: work });
      const what = `ckpt ${n.path.join(' ')} --help`;
      expect([what, r.code]).toEqual([what, 0]);
      const blocks = r.stdout.trimEnd().split(/\n\s*\n/);
      expect(blocks.at(-1), what).toMatch(/^Examples:\n( {2}\$ .*\bckpt\b.*\n?)+$/);
      const program = buildProgram();
      const cmd = n.path.reduce((c, name) => c.commands.find((x) => x.name() === name)!, program);
      for (const o of cmd.options.filter((x) => x.mandatory))
        expect(r.stdout, `${what} marks ${o.long}`).toMatch(
          new RegExp(`${o.long}[^\\n]*\\n?[^\\n]*\\(required\\)`),
        );
    }
  });
});
