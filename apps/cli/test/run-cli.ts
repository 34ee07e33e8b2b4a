import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

export const cliPath = resolve(import.meta.dirname, '../bin/ckpt.js');
export const repoRoot = resolve(import.meta.dirname, '../../..');

/** Runs the built `ckpt` in a real process. */
export function runCli(
  args: readonly string[],
  opts: { cwd?: string; env?: Record<string, string | undefined>; input?: string } = {},
) {
  const env: Record<string, string | undefined> = {
    ...process.env,
    GITHUB_ACTIONS: undefined,
    GITHUB_STEP_SUMMARY: undefined,
    NO_COLOR: '1',
    ...opts.env,
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  const r = spawnSync(process.execPath, [cliPath, ...args], {
    cwd: opts.cwd ?? repoRoot,
    env: env as NodeJS.ProcessEnv,
    encoding: 'utf8',
    input: opts.input ?? '',
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
