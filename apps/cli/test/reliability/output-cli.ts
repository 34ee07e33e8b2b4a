import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cliPath, repoRoot } from '../run-cli.js';

/** How long one command may take before it counts as hung (killed: the test fails, the run goes on). */
const HANG_MS = 20_000;

/** Runs the built `ckpt` in a real process, bounded in time; stdout and stderr as bytes-faithful latin1-free text. */
export function ckpt(args: readonly string[], cwd: string, env: Record<string, string | undefined> = {}) {
  const all: Record<string, string | undefined> = {
    ...process.env,
    GITHUB_ACTIONS: undefined,
    GITHUB_STEP_SUMMARY: undefined,
    NO_COLOR: '1',
    CKPT_NOW: '2026-11-30T12:00:00Z',
    ...env,
  };
  for (const k of Object.keys(all)) if (all[k] === undefined) delete all[k];
  const r = spawnSync(process.execPath, [cliPath, ...args], {
    cwd,
    env: all as NodeJS.ProcessEnv,
    encoding: 'utf8',
    input: '',
    timeout: HANG_MS,
    killSignal: 'SIGKILL',
  });
  if (r.signal === 'SIGKILL') throw new Error(`ckpt ${args.join(' ')} hung for ${HANG_MS} ms`);
  return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** A scratch project holding the given files (a string is written as is, anything else as JSON). */
export function project(files: Record<string, unknown> = {}): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'ckpt-output-'));
  for (const [rel, v] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), typeof v === 'string' ? v : `${JSON.stringify(v, null, 2)}\n`);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Characters a terminal acts on; `\n` and `\t` are allowed as ckpt's own layout. */
export const RAW_CONTROL =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** The parts of a ulpi status document the tests change. */
export interface UlpiSample {
  task: string;
  units: Record<string, { status: string; dependsOn: string[]; note: string }>;
  openItems: { detail: string }[];
  [field: string]: unknown;
}

/** The sample project's small ulpi run (schemaVersion 1), changed by `edit`: a document a real tool writes. */
export function sampleUlpi(edit: (doc: UlpiSample) => void): UlpiSample {
  const doc = JSON.parse(
    readFileSync(
      join(repoRoot, 'test-fixtures/sample-project/.ulpi/runs/lint-sweep-20260812T140210Z.json'),
      'utf8',
    ),
  );
  edit(doc);
  return doc;
}
