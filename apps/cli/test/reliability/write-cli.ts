import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath, repoRoot } from '../run-cli.js';

/** How long one command may take before it counts as hung (killed: the test fails, the run goes on). */
export const HANG_MS = 20_000;

export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const envOf = (extra: Record<string, string | undefined> = {}) => {
  const all: Record<string, string | undefined> = {
    ...process.env,
    GITHUB_ACTIONS: undefined,
    GITHUB_STEP_SUMMARY: undefined,
    NO_COLOR: '1',
    ...extra,
  };
  for (const k of Object.keys(all)) if (all[k] === undefined) delete all[k];
  return all as NodeJS.ProcessEnv;
};

/**
 * Runs the built `ckpt` in a real process, bounded in time. `fileSizeBlocks` runs it under `ulimit -f` (a file
 * size limit, in the shell's blocks: any write past it is cut short, then fails with EFBIG, as on a full disk;
 * the limit holds for root too). Only ckpt's own files are limited: stdout and stderr are pipes.
 */
export function ckpt(
  args: readonly string[],
  cwd: string,
  o: { env?: Record<string, string | undefined>; fileSizeBlocks?: number } = {},
): Ran {
  const [cmd, argv] =
    o.fileSizeBlocks === undefined
      ? [process.execPath, [cliPath, ...args]]
      : [
          '/bin/sh',
          ['-c', `ulimit -f ${o.fileSizeBlocks} && exec "$0" "$@"`, process.execPath, cliPath, ...args],
        ];
  const r = spawnSync(cmd, argv, {
    cwd,
    env: envOf(o.env),
    encoding: 'utf8',
    input: '',
    timeout: HANG_MS,
    killSignal: 'SIGKILL',
  });
  if (r.signal === 'SIGKILL') throw new Error(`ckpt ${args.join(' ')} hung for ${HANG_MS} ms`);
  return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** The same, without waiting: for races between real processes. */
export function ckptAsync(args: readonly string[], cwd: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      cwd,
      env: envOf(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') reject(new Error(`ckpt ${args.join(' ')} hung for ${HANG_MS} ms`));
      else resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** A scratch folder. */
export function scratch(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ckpt-write-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export { repoRoot };

/** True when this process runs as root, where permission bits do not stop a write (no EACCES). */
export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Mounts a tmpfs at `dir` (root with CAP_SYS_ADMIN only); false when the system does not allow it. */
export function tryMountTmpfs(dir: string, options: string): boolean {
  if (!isRoot) return false;
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { timeout: HANG_MS });
  return r.status === 0;
}

export function unmount(dir: string): void {
  spawnSync('umount', [dir], { timeout: HANG_MS });
}

/** Whether this process may mount a tmpfs (root with CAP_SYS_ADMIN), probed once on a scratch folder. */
export const canMountTmpfs = (() => {
  if (!isRoot) return false;
  const s = scratch();
  try {
    if (!tryMountTmpfs(s.dir, 'size=64k')) return false;
    unmount(s.dir);
    return true;
  } finally {
    s.cleanup();
  }
})();
