import { spawnSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { cliPath, repoRoot } from '../run-cli.js';

/** How long one command may take before it counts as hung (killed; the test fails, the run goes on). */
export const HANG_MS = 20_000;

/** Runs the built `ckpt` in a real process, killed after HANG_MS: `hung` tells a hang from an exit. */
export function runBounded(
  args: readonly string[],
  opts: { cwd: string; env?: Record<string, string | undefined> },
) {
  const env: Record<string, string | undefined> = {
    ...process.env,
    GITHUB_ACTIONS: undefined,
    GITHUB_STEP_SUMMARY: undefined,
    CKPT_MAX_FILE_SIZE: undefined,
    NO_COLOR: '1',
    CKPT_NOW: '2026-11-30T12:00:00Z',
    ...opts.env,
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  const r = spawnSync(process.execPath, [cliPath, ...args], {
    cwd: opts.cwd,
    env: env as NodeJS.ProcessEnv,
    encoding: 'utf8',
    input: '',
    timeout: HANG_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 2 ** 20,
  });
  return {
    code: r.status ?? -1,
    hung: r.signal === 'SIGKILL',
    stdout: r.stdout ?? '',
    stderr: r.stderr ?? '',
  };
}

export const SAMPLE = join(repoRoot, 'test-fixtures/sample-project');
/** The sample project's completed team run (both tasks finished, its approval valid). */
export const TEAM_RUN = '20261126T083011204517Z-3e9b01';
export const TEAM_DIR = `.team/runs/${TEAM_RUN}`;
export const ULPI_RUN = '.ulpi/runs/run-2026-11-27-152204Z.json';

/** A scratch copy of the sample project's team (first run only) and ulpi runs; removed by `cleanup`. */
export function scratchProject(): { dir: string; cleanup: () => void } {
  const t = tmpTree({});
  cpSync(join(SAMPLE, '.team'), join(t.dir, '.team'), { recursive: true });
  rmSync(join(t.dir, '.team/runs/20261128T140312558021Z-a41c7f'), { recursive: true });
  writeFileSync(join(t.dir, '.team/runs/current'), `${TEAM_RUN}\n`);
  cpSync(join(SAMPLE, '.ulpi'), join(t.dir, '.ulpi'), { recursive: true });
  return { dir: t.dir, cleanup: t.cleanup };
}

/** Every finding code in `ckpt status --json` output. */
export function statusCodes(stdout: string): string[] {
  const runs = JSON.parse(stdout).runs as { findings: { code: string }[] }[];
  return runs.flatMap((r) => r.findings.map((f) => f.code));
}
