// Times one command: wall clock around the child process, and (when GNU time is installed) its CPU time and
// peak memory. stdout goes to /dev/null, as a CI job that only wants the exit code would have it.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GNU_TIME = '/usr/bin/time';
const hasGnuTime = existsSync(GNU_TIME) && spawnSync(GNU_TIME, ['-f', '%e', 'true']).status === 0;
const scratch = mkdtempSync(join(tmpdir(), 'ckpt-bench-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

/**
 * Runs `cmd.argv` in `cwd` once. Returns wall ms (measured here, for every suite alike), CPU ms (user + system)
 * and max RSS in MB when GNU time is there, the exit code, and the end of stderr for error messages.
 */
export function timeCommand(cmd, cwd) {
  const errFile = join(scratch, 'stderr');
  const timeFile = join(scratch, 'time');
  const out = openSync('/dev/null', 'w');
  const err = openSync(errFile, 'w');
  const [file, ...args] = hasGnuTime ? [GNU_TIME, '-o', timeFile, '-f', '%U %S %M', ...cmd.argv] : cmd.argv;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(file, args, { cwd, stdio: ['ignore', out, err], env: { ...process.env, ...cmd.env } });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  closeSync(out);
  closeSync(err);
  let cpu = Number.NaN;
  let rss = Number.NaN;
  if (hasGnuTime) {
    const m = /(\d+\.\d+) (\d+\.\d+) (\d+)\s*$/.exec(readFileSync(timeFile, 'utf8'));
    if (m) {
      cpu = (Number(m[1]) + Number(m[2])) * 1000;
      rss = Number(m[3]) / 1024;
    }
  }
  const stderr = readFileSync(errFile, 'utf8');
  const code = r.status ?? (r.signal ? 128 : 1);
  return { wall, cpu, rss, code, stderrTail: stderr.slice(-1500) };
}

/** The median of a list of numbers (NaN for an empty list). */
export function median(xs) {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export const cpuMeasured = hasGnuTime;
