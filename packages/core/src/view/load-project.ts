import { relative, resolve, sep } from 'node:path';
import { withAttention } from '../attention/attention.js';
import { currentTime } from '../attention/clock.js';
import { createTreeContext } from '../check/validate-files.js';
import type { Dialect, DialectId, TreeContext } from '../dialects/dialect.js';
import { dialects } from '../dialects/registry.js';
import { redactSecretsIn } from '../text/secrets.js';
import type { RunFacts, RunView } from './run-view.js';

export interface LoadProjectOptions {
  /** Only these dialects. */
  readonly dialects?: readonly DialectId[];
  readonly onProgress?: (message: string) => void;
  /** The time staleness is measured against; default `currentTime()` (which honours CKPT_NOW). */
  readonly now?: number;
  /** Keep secret-looking values as written (`--show-secrets`); by default they are redacted (text/secrets.ts). */
  readonly showSecrets?: boolean;
}

/** A directory holding one dialect's runs, as its `discover` found it. */
export interface ProjectRoot {
  readonly dialect: DialectId;
  /** Absolute path. */
  readonly root: string;
}

/** Newest first: by updatedAt, then createdAt, then id. */
export function compareRunsNewestFirst(a: RunView, b: RunView): number {
  const ta = a.updatedAt ?? a.createdAt ?? '';
  const tb = b.updatedAt ?? b.createdAt ?? '';
  if (ta !== tb) return ta < tb ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function selected(opts: LoadProjectOptions): Dialect[] {
  return dialects.filter(
    (d) => d.discover && d.loadRunViews && (!opts.dialects || opts.dialects.includes(d.id)),
  );
}

/** Every root of every (selected) dialect under a project directory. */
export function discoverRoots(projectDir: string, opts: LoadProjectOptions = {}): ProjectRoot[] {
  const dir = resolve(projectDir);
  const out: ProjectRoot[] = [];
  for (const d of selected(opts)) {
    let roots: string[] = [];
    try {
      roots = d.discover!(dir);
    } catch {
      // A dialect that cannot search (an unreadable directory) contributes no roots; its files still validate.
    }
    for (const root of roots) out.push({ dialect: d.id, root: resolve(root) });
  }
  return out;
}

/**
 * A run standing for a root whose loader failed: shown (needing attention) rather than hiding every other run.
 * Bad input is meant to become findings inside loaders; this only guards against a loader bug.
 */
function failedRootView(d: Dialect, rootDisplay: string, error: unknown): RunFacts {
  const message = `the ${d.id} loader failed on ${rootDisplay}: ${(error as Error)?.message ?? String(error)}`;
  return {
    id: rootDisplay,
    dialect: d.id,
    title: rootDisplay,
    status: 'unreadable',
    tone: 'error',
    root: rootDisplay,
    sources: [],
    phases: [],
    units: [],
    approvals: [],
    counts: {},
    progress: { done: 0, total: 0 },
    findings: [
      {
        code: 'io/unreadable',
        severity: 'error',
        message,
        file: rootDisplay,
        pointer: '',
        line: 1,
        column: 1,
      },
    ],
    resume: {
      summary: 'unknown: the run could not be loaded',
      skip: [],
      runNext: [],
      blocked: [],
      needsPerson: [{ id: rootDisplay, reason: message }],
      notes: [],
    },
    details: [],
  };
}

function loadRoot(d: Dialect, root: string, ctx: TreeContext): RunFacts[] {
  try {
    return d.loadRunViews!(root, ctx);
  } catch (e) {
    return [failedRootView(d, ctx.display(root), e)];
  }
}

/**
 * Every run of every dialect under a project directory, as RunViews, newest first. This is the one entry point
 * both `ckpt status` and the viewer use, so they show the same facts.
 */
export function loadProject(projectDir: string, opts: LoadProjectOptions = {}): RunView[] {
  const dir = resolve(projectDir);
  const display = displayUnder(dir);
  const ctx = createTreeContext({}, display);
  const runs: RunView[] = [];
  const byId = new Map(dialects.map((d) => [d.id, d]));
  const now = opts.now ?? currentTime();
  for (const { dialect, root } of discoverRoots(dir, opts)) {
    opts.onProgress?.(`reading ${dialect} runs in ${display(root)}`);
    for (const run of loadRoot(byId.get(dialect)!, root, ctx)) {
      const view = withAttention(run, now);
      runs.push(opts.showSecrets ? view : redactSecretsIn(view));
    }
  }
  return runs.sort(compareRunsNewestFirst);
}

/** An empty, `.` or `..` segment, a trailing `/`, or a backslash: cases `relative` normalizes or rewrites. */
const ODD_SEGMENT = /\/\.{0,2}(?:\/|$)|\\/;

/**
 * How a path shows relative to the project directory (`/` separators, `.` for the directory itself). A path the
 * loaders built under it (normalized, POSIX) is sliced, not passed through `relative` (100k event files).
 */
export function displayUnder(dir: string): (abs: string) => string {
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  const slow = (abs: string) => relative(dir, abs).replace(/\\/g, '/') || '.';
  if (sep !== '/') return slow;
  return (abs) =>
    abs.startsWith(prefix) && !ODD_SEGMENT.test(abs.slice(prefix.length - 1))
      ? abs.slice(prefix.length)
      : slow(abs);
}

/** Finds one run by exact id, then by unique id prefix. */
export function findRun(runs: readonly RunView[], id: string): RunView | undefined {
  const m = matchRun(runs, id);
  return m.kind === 'found' ? m.run : undefined;
}

/** The outcome of looking a run up by id: found, ambiguous (with the candidates) or not found. */
export type RunMatch =
  | { readonly kind: 'found'; readonly run: RunView }
  | { readonly kind: 'ambiguous'; readonly candidates: readonly RunView[] }
  | { readonly kind: 'none' };

/**
 * Looks a run up the way `ckpt status --run` does: `<dialect>/<id>` or `<id>`, exact id first, then a unique
 * prefix. An exact id shared by runs of two dialects is ambiguous unless the dialect is given.
 */
export function matchRun(runs: readonly RunView[], query: string, dialect?: DialectId): RunMatch {
  let pool = dialect ? runs.filter((r) => r.dialect === dialect) : runs;
  let id = query;
  const slash = query.indexOf('/');
  if (slash > 0 && !dialect) {
    const d = query.slice(0, slash);
    if (runs.some((r) => r.dialect === d)) {
      pool = runs.filter((r) => r.dialect === d);
      id = query.slice(slash + 1);
    }
  }
  const pick = (found: readonly RunView[]): RunMatch | undefined =>
    found.length === 1
      ? { kind: 'found', run: found[0]! }
      : found.length > 1
        ? { kind: 'ambiguous', candidates: found }
        : undefined;
  return (
    pick(pool.filter((r) => r.id === id)) ?? pick(pool.filter((r) => r.id.startsWith(id))) ?? { kind: 'none' }
  );
}
