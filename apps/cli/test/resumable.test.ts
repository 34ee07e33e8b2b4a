import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const sha = (c: string) => c.repeat(40);

describe('ckpt resumable', () => {
  it('should drive a run from init to finalize with the CLI alone, refusing what the gates forbid', () => {
    const t = tmpTree();
    const env = { OPENCODE_CONFIG_DIR: t.path('cfg') };
    const cli = (...a: string[]) => runCli(['resumable', ...a], { cwd: t.dir, env });
    const init = cli(
      'init',
      '--task',
      'ship',
      '--run-id',
      '20261129T120000Z',
      '--repo-root',
      t.dir,
      '--branch',
      'main',
      '--base-pin',
      sha('a'),
      '--expected-old-sha',
      sha('b'),
      '--plan',
      'plan.md',
      '--stages',
      'S1,S2',
      '--check',
      'S1:CLEAN',
      '--check',
      'S2:PUSH_ATTEMPTED',
      '--check',
      'S2:REMOTE_CONFIRMED',
    );
    expect(init.code).toBe(0);
    const root = init.stdout.trim();
    expect(root).toBe(t.path('cfg/reports/ship-20261129T120000Z'));
    expect(cli('lock').code).toBe(0);
    const refused = cli('stage-done', 'S1');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^ckpt: S1 checklist incomplete: CB_S1_CLEAN=0\n$/);
    expect(cli('check', 'S1', 'CLEAN').code).toBe(0);
    writeFileSync(join(root, 'artifacts/S1-clean.txt'), 'ok\n');
    expect(cli('stage-done', 'S1').code).toBe(0);
    expect(cli('finalize').code).toBe(2);
    const st = JSON.parse(cli('status', '--json').stdout);
    expect(st[0].decision).toMatchObject({ window: 'before-mutation', stage: 'S2' });
    cli('check', 'S2', 'PUSH_ATTEMPTED');
    expect(JSON.parse(cli('status', '--json').stdout)[0].decision.window).toBe(
      'push-attempted-outcome-unknown',
    );
    cli('check', 'S2', 'REMOTE_CONFIRMED');
    writeFileSync(join(root, 'artifacts/S2-push.txt'), 'ok\n');
    expect(cli('stage-done', 'S2').code).toBe(0);
    expect(cli('log', 'pushed', 'to', 'main').code).toBe(0);
    expect(cli('finalize').code).toBe(0);
    const state = readFileSync(join(root, 'state.env'), 'utf8');
    const second = cli('finalize');
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('nothing changed');
    expect(readFileSync(join(root, 'state.env'), 'utf8')).toBe(state);
    expect(cli('unlock').code).toBe(0);
    expect(runCli(['validate', 'cfg'], { cwd: t.dir }).code).toBe(0);
    const text = cli('status').stdout;
    expect(text).toContain('ship-20261129T120000Z  [finalized]');
    t.cleanup();
  });

  it('should refuse the lock (exit 2) while a real live process holds it, and take it over once it dies', async () => {
    const t = tmpTree();
    const env = { OPENCODE_CONFIG_DIR: t.path('cfg') };
    const cli = (...a: string[]) => runCli(['resumable', ...a], { cwd: t.dir, env });
    cli(
      'init',
      '--task',
      'x',
      '--run-id',
      '20261129T120000Z',
      '--repo-root',
      t.dir,
      '--branch',
      'main',
      '--base-pin',
      sha('a'),
      '--expected-old-sha',
      sha('b'),
      '--plan',
      'p.md',
    );
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      expect(cli('lock', '--pid', String(holder.pid)).code).toBe(0);
      const r = cli('lock', '--pid', String(process.pid));
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(`^ckpt: run is locked by live process pid=${holder.pid} .*: stop\\n$`),
      );
      expect(cli('status').stdout).toContain('resumable/lock-active');
    } finally {
      await new Promise<void>((res) => {
        holder.once('exit', () => res());
        holder.kill('SIGKILL');
      });
    }
    expect(cli('lock', '--pid', String(process.pid)).code).toBe(0);
    const log = readFileSync(t.path('cfg/reports/x-20261129T120000Z/run.log'), 'utf8');
    expect(log).toContain(`stale lock replaced (stale): `);
    expect(log).toContain(`pid="${holder.pid}"`);
    t.cleanup();
  }, 30_000);

  it('should print usage errors on one line with exit 2', () => {
    const r = runCli(['resumable', 'check', 'S1', 'X', '7', '--run', '.'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('ckpt: value must be 0 or 1, got "7"\n');
  });
});
