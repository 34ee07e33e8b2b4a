import { lstatSync, readdirSync, type Stats, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { attentionOf } from '../attention/attention.js';
import { currentTime } from '../attention/clock.js';
import { ATTENTION_REASONS, type AttentionLevel, type AttentionReason } from '../attention/reasons.js';
import { createTreeContext } from '../check/validate-files.js';
import { matchCatalog } from '../detect/catalog.js';
import type { Dialect } from '../dialects/dialect.js';
import { dialects } from '../dialects/registry.js';
import { isTempName } from '../fs/atomic.js';
import { assertReadable, readRegularFileUtf8 } from '../fs/read-checkpoint.js';
import { type ReadFailure, readFailure } from '../fs/read-failure.js';
import { shellCommand } from '../text/shell-quote.js';
import type { RunFacts } from '../view/run-view.js';

/** Something `ckpt doctor` found that needs a person: what, where, and what to do. */
export interface DoctorProblem {
  readonly kind: 'unreadable' | 'stale-lock' | 'temp-file' | 'node-version' | 'load-failed';
  readonly path?: string;
  readonly message: string;
  readonly fix: string;
}

/** Where runs of one dialect were found. */
export interface DialectRuns {
  readonly dialect: string;
  /** Runs whose attention level is not `none`, with their reasons (the same as `ckpt status` shows). */
  readonly attention: readonly {
    readonly id: string;
    readonly level: AttentionLevel;
    readonly reasons: readonly AttentionReason[];
  }[];
  readonly roots: readonly { readonly root: string; readonly runs: number | null }[];
  /** Checkpoint files of this dialect (matched by the catalog). */
  readonly files: number;
}

export interface DoctorReport {
  readonly node: { readonly version: string; readonly required: string; readonly ok: boolean };
  readonly dir: string;
  readonly dialects: readonly DialectRuns[];
  readonly problems: readonly DoctorProblem[];
}

const SKIP = new Set(['node_modules', '.git']);
const REQUIRED = [20, 11] as const;

/** True when the running Node is at least the version ckpt's engines field names. */
export function nodeOk(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > REQUIRED[0] || (major === REQUIRED[0] && minor >= REQUIRED[1]);
}

interface Walked {
  files: string[];
  lockDirs: string[];
  unreadableDirs: string[];
}

function walk(dir: string, out: Walked): void {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    out.unreadableDirs.push(dir);
    return;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name.endsWith('.lock')) out.lockDirs.push(p);
      else if (!SKIP.has(e.name)) walk(p, out);
    } else out.files.push(p); // a FIFO, socket or device too: reported below when it sits at a checkpoint path
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holder a lock records: `pid=`/`host=`/`acquired_at_utc=` lines of run.lock, or `pid@host` in a lock dir's owner file. */
function lockHolder(text: string): { pid?: number; host?: string; acquiredMs?: number } {
  const at = /^(\d+)@(\S+)/.exec(text.trim());
  if (at) return { pid: Number(at[1]), host: at[2]! };
  const pid = /^\s*(?:LOCK_)?PID="?(\d+)"?/im.exec(text);
  const host = /^\s*(?:LOCK_)?HOST(?:NAME)?="?([^"\n]+)"?/im.exec(text);
  const acquired = /^\s*acquired_at(?:_utc)?="?([^"\n]+)"?/im.exec(text);
  const acquiredMs = acquired ? Date.parse(acquired[1]!) : Number.NaN;
  return {
    ...(pid ? { pid: Number(pid[1]) } : {}),
    ...(host ? { host: host[1]! } : {}),
    ...(Number.isFinite(acquiredMs) ? { acquiredMs } : {}),
  };
}

function readText(path: string): string {
  try {
    return readRegularFileUtf8(path);
  } catch {
    return '';
  }
}

/**
 * Judges a lock stale when its recorded holder is gone from this host, or it is older than `staleMs` (by the
 * time it records, else its mtime: a checkout resets mtimes, a recorded time survives).
 */
function staleLock(st: Stats, text: string, now: number, staleMs: number): string | undefined {
  const { pid, host, acquiredMs } = lockHolder(text);
  const since = acquiredMs ?? st.mtimeMs;
  const age = Math.round((now - since) / 60000);
  const holder = pid !== undefined ? ` (pid ${pid}${host ? ` on ${host}` : ''})` : '';
  if (pid !== undefined && (host === undefined || host === hostname()) && !alive(pid))
    return `lock held by pid ${pid}${host ? ` on ${host}` : ''}, which is no longer running (${age} min old)`;
  if (now - since > staleMs) return `lock is ${age} min old${holder}`;
  return undefined;
}

/** The file's stat, or the link's own for a dangling link or a loop (walked entries include symlinks). */
function statOrLink(path: string): Stats {
  try {
    return statSync(path);
  } catch {
    return lstatSync(path);
  }
}

/** Why a file cannot be read (`is a FIFO, not a regular file`, `permission denied`), or undefined. Never blocks. */
function cannotRead(path: string): ReadFailure | undefined {
  try {
    assertReadable(path);
    return undefined;
  } catch (e) {
    return readFailure(path, e);
  }
}

/** The literal directory a catalog pattern starts with (`.team/runs` for the team run pattern), if any. */
function literalPrefix(pattern: string): string | undefined {
  const parts = pattern
    .replace(/^\*\*\//, '')
    .split('/')
    .slice(0, -1);
  const cut = parts.findIndex((p) => /[*?]/.test(p));
  const lit = (cut < 0 ? parts : parts.slice(0, cut)).join('/');
  return lit || undefined;
}

/**
 * Roots of a dialect that has no discovery yet: its own rootOf, else the literal directory of the catalog
 * pattern that matched, else the file's directory; roots that contain other roots are dropped.
 */
function fallbackRoots(files: readonly string[], rootOf: Dialect['rootOf']): string[] {
  const roots = new Set<string>();
  for (const f of files) {
    const entry = matchCatalog(f);
    const own = rootOf?.(f, entry?.kind);
    if (own) {
      roots.add(own);
      continue;
    }
    const lit = entry?.fileMatch.map(literalPrefix).find((l) => l !== undefined && f.includes(`/${l}/`));
    roots.add(lit ? f.slice(0, f.lastIndexOf(`/${lit}/`) + lit.length + 1) : f.slice(0, f.lastIndexOf('/')));
  }
  return [...roots].filter((r) => ![...roots].some((o) => o !== r && o.startsWith(`${r}/`)));
}

/** Runs found per dialect: each dialect's own discovery and loader; failures become problems, not crashes. */
function findRuns(
  dir: string,
  files: readonly string[],
  show: (p: string) => string,
  problems: DoctorProblem[],
  now: number,
) {
  // Confined as `status`: a file or folder linked out of the project is a finding, never read or listed.
  const ctx = createTreeContext({ confineTo: dir }, show);
  return dialects.map((d): DialectRuns => {
    const matched = files.filter((f) => matchCatalog(f)?.kind.startsWith(`${d.id}/`));
    let roots: string[] = [];
    try {
      roots = d.discover?.(dir) ?? [];
    } catch (e) {
      problems.push({
        kind: 'load-failed',
        message: `${d.id}: discovery failed: ${(e as Error).message}`,
        fix: 'run `ckpt validate` on the tree',
      });
    }
    if (roots.length === 0 && matched.length > 0) roots = fallbackRoots(matched, d.rootOf);
    const attention: DialectRuns['attention'][number][] = [];
    return {
      dialect: d.id,
      files: matched.length,
      attention,
      roots: roots.sort().map((root) => {
        let runs: RunFacts[] | null = null;
        try {
          runs = d.loadRunViews ? d.loadRunViews(root, ctx) : null;
        } catch (e) {
          problems.push({
            kind: 'load-failed',
            path: show(root),
            message: `${d.id} runs could not be loaded: ${(e as Error).message}`,
            fix: `run \`${shellCommand(['ckpt', 'validate', show(root)])}\` to see what is wrong`,
          });
        }
        for (const run of runs ?? []) {
          const a = attentionOf(run, now);
          if (a.level !== 'none') attention.push({ id: run.id, level: a.level, reasons: a.reasons });
        }
        return { root: show(root), runs: runs ? runs.length : null };
      }),
    };
  });
}

/** Looks at a directory the way `ckpt doctor` reports it. Reads only; never changes a file. */
export function scanProject(
  dir: string,
  opts: { staleMs: number; now?: number; nodeVersion?: string },
): DoctorReport {
  const now = opts.now ?? currentTime();
  const version = opts.nodeVersion ?? process.version;
  const show = (p: string) => relative(dir, p).replace(/\\/g, '/') || '.';
  const problems: DoctorProblem[] = [];
  const ok = nodeOk(version);
  if (!ok)
    problems.push({
      kind: 'node-version',
      message: `Node ${version} is older than ckpt needs (>= ${REQUIRED.join('.')})`,
      fix: 'install Node 20.11 or newer (https://nodejs.org)',
    });
  const w: Walked = { files: [], lockDirs: [], unreadableDirs: [] };
  walk(dir, w);
  for (const d of w.unreadableDirs.filter((x) => x !== dir))
    problems.push({
      kind: 'unreadable',
      path: show(d),
      message: 'directory cannot be listed',
      fix: `give yourself read access: ${shellCommand(['chmod', 'u+rx', '--', show(d)])}`,
    });
  for (const f of w.files) {
    const name = f.slice(f.lastIndexOf('/') + 1);
    if (isTempName(name)) {
      const st = statOrLink(f);
      const age = Math.round((now - st.mtimeMs) / 60000);
      problems.push({
        kind: 'temp-file',
        path: show(f),
        message: `temp file of an interrupted write (${age} min old); readers ignore it`,
        fix: `when no writer is running, delete it: ${shellCommand(['rm', '--', show(f)])}`,
      });
      continue;
    }
    if (name.endsWith('.lock') || name === 'run.lock') {
      const why = staleLock(statOrLink(f), readText(f), now, opts.staleMs);
      const lock = ATTENTION_REASONS['lock/dead-holder'];
      const root = show(f.slice(0, f.lastIndexOf('/')));
      if (why)
        problems.push({
          kind: 'stale-lock',
          path: show(f),
          message: why,
          fix: `${lock.hint}: ${lock.command({ dialect: 'resumable', id: root, root })}`,
        });
    }
    if (matchCatalog(f)) {
      const err = cannotRead(f);
      if (err)
        problems.push({
          kind: 'unreadable',
          path: show(f),
          message: `checkpoint file cannot be read (${err.reason})`,
          fix:
            err.code === 'io/unreadable'
              ? `give yourself read access: ${shellCommand(['chmod', 'u+r', '--', show(f)])}`
              : 'put the real checkpoint file in its place (ckpt reads only regular files)',
        });
    }
  }
  for (const l of w.lockDirs) {
    const why = staleLock(statSync(l), readText(join(l, 'owner')), now, opts.staleMs);
    const mutex = ATTENTION_REASONS['lock/leftover-mutex'];
    if (why)
      problems.push({
        kind: 'stale-lock',
        path: show(l),
        message: why,
        fix: `${mutex.hint}: ${mutex.command({ dialect: 'ulpi', id: show(l), root: show(l), file: show(l) })}`,
      });
  }
  const readable = w.files.filter((f) => cannotRead(f) === undefined);
  return {
    node: { version, required: `>=${REQUIRED.join('.')}`, ok },
    dir,
    dialects: findRuns(dir, readable, show, problems, now),
    problems,
  };
}
