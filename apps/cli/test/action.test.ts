import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
// @ts-expect-error a plain .mjs module of the repository's release scripts, without declarations
import { evaluate, readCommandFile } from '../../../scripts/release/action-runner.mjs';
import { cliPath, repoRoot } from './run-cli.js';

const actionYml = readFileSync(join(repoRoot, 'action.yml'), 'utf8');

/** The `run: |` script of the step with `id: validate`, as the runner gives it to bash. */
function validateScript(): string {
  const lines = actionYml.split('\n');
  const start = lines.findIndex(
    (l, i) => /^\s+run: \|$/.test(l) && lines.slice(0, i).some((x) => /id: validate$/.test(x)),
  );
  const body: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (l.trim() !== '' && !l.startsWith('        ')) break;
    body.push(l.slice(8));
  }
  return body.join('\n');
}

const badEvent = `{
  "event": "task_finished",
  "at": "2026-10-28T13:20:00Z",
  "run_id": "20261028T131016577943Z-20fe61",
  "task_id": "build-fe",
  "stage": "build",
  "agent": "fe",
  "attempt": 1,
  "status": "done",
  "session": null,
  "parent_session": null,
  "inputs": [],
  "artifacts": [],
  "evidence": "",
  "next": ""
}
`;
const eventPath =
  '.team/runs/20261028T131016577943Z-20fe61/events/20261028T132000000000Z-task_finished-build-fe-a1-3f9a0c.json';

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

/** Runs the action's validate step the way a runner does (bash -eo pipefail), with `ckpt` on PATH. */
function runStep(inputs: Record<string, string>, files: Record<string, string> = { [eventPath]: badEvent }) {
  const t = tmpTree(files);
  cleanups.push(() => t.cleanup());
  const bin = join(t.dir, '.bin-for-test');
  mkdirSync(bin);
  writeFileSync(join(bin, 'ckpt'), `#!/bin/sh\nexec "${process.execPath}" "${cliPath}" "$@"\n`);
  chmodSync(join(bin, 'ckpt'), 0o755);
  writeFileSync(join(t.dir, 'summary.md'), '');
  writeFileSync(join(t.dir, 'output.txt'), '');
  const env = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: process.env.HOME ?? t.dir,
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: join(t.dir, 'summary.md'),
    GITHUB_OUTPUT: join(t.dir, 'output.txt'),
    CKPT_PATHS: inputs.paths ?? '.',
    CKPT_DIALECT: inputs.dialect ?? '',
    CKPT_STRICT: inputs.strict ?? 'false',
    CKPT_REPORTER: inputs.reporter ?? 'github',
    CKPT_OUTPUT_FILE: inputs['output-file'] ?? '',
  };
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', validateScript()], {
    cwd: t.dir,
    env,
    encoding: 'utf8',
  });
  const read = (name: string) => readFileSync(join(t.dir, name), 'utf8');
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    summary: read('summary.md'),
    output: read('output.txt'),
    read,
  };
}

describe('action.yml', () => {
  it('should declare the inputs paths, dialect, strict and reporter, passed to the script as env', () => {
    for (const input of ['paths', 'dialect', 'strict', 'reporter', 'output-file', 'version'])
      expect(actionYml).toMatch(new RegExp(`\\n  ${input}:\\n    description:`));
    expect(actionYml).toContain("using: 'composite'");
    expect(validateScript()).not.toContain('${{');
  });

  it('should annotate a bad checkpoint file in a fresh repository and fail the step', () => {
    const r = runStep({});
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`::error file=${eventPath.replace(/,/g, '%2C')},line=9,col=13`);
    expect(r.stdout).toContain('title=ckpt schema/enum');
    expect(r.summary).toContain('### ❌ ckpt validate');
    expect(r.summary).toContain('`schema/enum`');
    expect(r.output).toBe('exit-code=1\n');
  });

  it('should pass a valid tree', () => {
    const r = runStep({}, { 'README.md': '# nothing to check\n' });
    expect(r.code).toBe(0);
    expect(r.summary).toContain('### ✅ ckpt validate');
  });

  it('should take several paths, one per line with spaces inside, and a glob', () => {
    const r = runStep(
      { paths: 'dir with space\n.team/runs/*/run.json\n' },
      { 'dir with space/x.txt': 'x', '.team/runs/20261028T131016577943Z-20fe61/run.json': '{' },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('parse/invalid-json');
  });

  it('should pass dialect and strict on, and write sarif to the output file', () => {
    const r = runStep({ dialect: 'team', strict: 'true', reporter: 'sarif', 'output-file': 'ckpt.sarif' });
    expect(r.code).toBe(1);
    const log = JSON.parse(r.read('ckpt.sarif'));
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0].results.map((x: { ruleId: string }) => x.ruleId)).toContain('schema/enum');
  });

  it('should refuse a strict input that is not true or false', () => {
    const r = runStep({ strict: 'yes' });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('input strict must be true or false');
  });
});

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
const steps: Step[] = parse(actionYml).runs.steps;
/** An Actions expression as action.yml spells it (`${{ … }}`: not a JS template). */
const expr = (body: string) => `$\{{ ${body} }}`;

describe('action.yml steps', () => {
  it('should pass every input to scripts through env:, never as an expression inside run:', () => {
    for (const s of steps.filter((x) => x.run)) expect(s.run, s.name).not.toContain(expr('').slice(0, 3));
  });

  it('should install from its own bundle/ offline by default, and from the registry only for a version', () => {
    const install = steps.find((s) => s.name === 'Install ckpt')!;
    expect(install.run).toMatch(/npm install --global .*--offline.* "\$GITHUB_ACTION_PATH\/bundle"/);
    expect(install.run).toContain('"@ckpt/cli@$' + '{CKPT_VERSION}"');
    expect(parse(actionYml).inputs.version.default).toBe('');
    expect(install.if).toContain("steps.cache.outputs.cache-hit != 'true'");
  });

  it('should cache the installed CLI with actions/cache under a key made by the plan step', () => {
    const cache = steps.find((s) => s.uses?.startsWith('actions/cache@'))!;
    expect(cache.with).toEqual({
      path: expr('steps.plan.outputs.prefix'),
      key: expr('steps.plan.outputs.cache-key'),
    });
    expect(steps.findIndex((s) => s.id === 'plan')).toBeLessThan(steps.indexOf(cache));
  });
});

describe('the action runner (scripts/release/action-runner.mjs)', () => {
  const ctx = {
    inputs: { version: '', 'node-version': '20' },
    steps: { cache: { outputs: { 'cache-hit': 'true' } } },
  };

  it('should evaluate the expressions action.yml uses as the runner does', () => {
    expect(evaluate("inputs.node-version != ''", ctx)).toBe(true);
    expect(evaluate("steps.cache.outputs.cache-hit != 'true'", ctx)).toBe(false);
    expect(evaluate("steps.missing.outputs.x == ''", ctx)).toBe(true);
    expect(evaluate("inputs.version || 'local'", ctx)).toBe('local');
    expect(evaluate("!(inputs.version == '') && true", ctx)).toBe(false);
  });

  it('should read $GITHUB_OUTPUT lines and heredoc blocks', () => {
    const t = tmpTree({ out: 'exit-code=1\nsummary<<EOF\nline 1\nline=2\nEOF\nkey=a=b\n' });
    cleanups.push(() => t.cleanup());
    expect(readCommandFile(join(t.dir, 'out'))).toEqual({
      'exit-code': '1',
      summary: 'line 1\nline=2',
      key: 'a=b',
    });
  });
});
