import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { createTreeContext } from '../../check/validate-files.js';
import { CkptError } from '../../errors.js';
import { fsyncDir, writeOnce } from '../../fs/atomic.js';
import { type FileSystem, nodeFileSystem } from '../../fs/file-system.js';
import { assertReadable } from '../../fs/read-checkpoint.js';
import { readFailure } from '../../fs/read-failure.js';
import { secretRefusal } from '../../text/secrets.js';
import { charLength, LIMITS, pathProblem, SAFE_NAME, secretIn, textProblem } from './guards.js';
import { hashProjectFile, loadTeamRunFiles } from './load.js';
import { type TeamRunModel, teamRunModel } from './model.js';
import { type Clock, RUN_ID_RE, systemClock } from './names.js';
import type { TeamWriteOptions } from './write.js';

// The checks and file steps every team writer shares: argument guards (refusals), loading a run, publishing.

export const refuse = (msg: string): never => {
  throw new CkptError('REFUSED', msg);
};

export function checkName(field: string, v: string, fileSafe: boolean): void {
  if (v.length === 0) refuse(`${field} is empty`);
  // Before any message that quotes the value: a refusal never echoes a secret.
  const secret = secretIn(v);
  if (secret) refuse(`${field} looks like it holds a secret (${secret})`);
  if (charLength(v) > LIMITS.name) refuse(`${field} is longer than ${LIMITS.name} characters`);
  if (fileSafe && !SAFE_NAME.test(v))
    refuse(`${field} "${v}" must match ${SAFE_NAME} (it is part of file names)`);
  if (/[\u0000-\u001f\u007f]/.test(v)) refuse(`${field} holds a control character`);
}

export function checkText(field: 'evidence' | 'next' | 'note' | 'reason', v: string): void {
  const problem = textProblem(field, v);
  if (problem) refuse(problem);
}

/** Normalises and checks a project-relative path (a leading `./` is dropped; `\` becomes `/`). */
export function checkPath(field: string, p: string): string {
  const secret = secretRefusal(`--${field} path`, p);
  if (secret) refuse(secret);
  const norm = p.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
  const problem = pathProblem(norm) ?? pathProblem(p);
  if (problem) refuse(`${field} "${p}": ${problem}; paths must stay inside the project`);
  return norm;
}

export interface Ctx {
  readonly projectDir: string;
  readonly runsDir: string;
  readonly fs: FileSystem;
  readonly clock: Clock;
}

export function ctxOf(opts: TeamWriteOptions): Ctx {
  // Session ids are recorded as given: free text like any other, so no secret in them either.
  for (const [field, v] of [
    ['--session', opts.session],
    ['--parent-session', opts.parentSession],
  ] as const) {
    const secret = typeof v === 'string' ? secretRefusal(field, v) : undefined;
    if (secret) refuse(secret);
  }
  const projectDir = resolve(opts.projectDir ?? process.cwd());
  return {
    projectDir,
    runsDir: join(projectDir, '.team', 'runs'),
    fs: opts.fs ?? nodeFileSystem,
    clock: opts.clock ?? systemClock,
  };
}

/** Reads one run as the reader sees it; refuses an unknown run. */
export function loadRun(c: Ctx, runId: string): TeamRunModel {
  if (!RUN_ID_RE.test(runId) || !existsSync(join(c.runsDir, runId, 'run.json')))
    refuse(`unknown run "${runId}"`);
  const display = (abs: string) => relative(c.projectDir, abs).replace(/\\/g, '/');
  const files = loadTeamRunFiles(join(c.runsDir, runId), createTreeContext({}, display));
  const model = teamRunModel(files, (rel) => hashProjectFile(c.projectDir, rel));
  if (!model.run) {
    // Say what is wrong with it when it is not a readable file (a FIFO, a directory, a link loop), not "malformed".
    const path = join(c.runsDir, runId, 'run.json');
    let what = 'a malformed run.json';
    try {
      assertReadable(path);
    } catch (e) {
      what = `a run.json that ${readFailure(path, e).reason}`;
    }
    refuse(`run "${runId}" has ${what}; fix it before writing to the run`);
  }
  return model;
}

export function ensureDir(c: Ctx, dir: string): void {
  if (existsSync(dir)) return;
  c.fs.mkdirSync(dir, { recursive: true });
  fsyncDir(c.fs, join(dir, '..'));
}

export const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/** Publishes a write-once file under a fresh unique name (a taken name is never overwritten: a new token is drawn). */
export function publish(c: Ctx, dir: string, name: () => string, data: string): string {
  ensureDir(c, dir);
  for (let i = 0; i < 8; i++) {
    const path = join(dir, name());
    if (writeOnce(path, data, { fs: c.fs })) return path;
  }
  throw new CkptError('IO', `could not find a free file name in ${dir}`);
}
