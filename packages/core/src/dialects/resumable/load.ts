import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, normalize } from 'node:path';
import { checkEntry } from '../../check/check-document.js';
import { entriesOfDialect } from '../../detect/catalog.js';
import type { Finding } from '../../findings/finding.js';
import { isTempName } from '../../fs/atomic.js';
import { folderLinkedOutside, outsideFolderFinding } from '../../fs/folder-link.js';
import { entryExists, readRegularFileUtf8 } from '../../fs/read-checkpoint.js';
import type { CheckedDocument, TreeContext } from '../dialect.js';
import { classifyLock, type LockProbe, type LockState, systemProbe } from './lock.js';
import { type LogLine, parseRunLog } from './run-log.js';
import type { EnvValues } from './stages.js';

/** File names inside a run root. */
export const RUN_FILES = {
  state: 'state.env',
  checklist: 'checklist.state.env',
  log: 'run.log',
  lock: 'run.lock',
  artifacts: 'artifacts',
  contract: 'artifacts/contract.env',
} as const;

/** Everything read from one run root `<task>-<run-id>/`. Documents are undefined when their file is absent. */
export interface RunRoot {
  readonly dir: string;
  /** The folder name, `<task>-<run-id>`. */
  readonly name: string;
  readonly state: CheckedDocument | undefined;
  readonly checklist: CheckedDocument | undefined;
  readonly lock: CheckedDocument | undefined;
  /** True when the lock was read from a path no catalog pattern names (LOCK_FILE's): validate reports its findings. */
  readonly lockOffCatalog: boolean;
  /** The contract recorded at bootstrap (artifacts/contract.env), when `ckpt resumable init` made the run. */
  readonly contract: CheckedDocument | undefined;
  readonly log: { readonly file: string; readonly lines: readonly LogLine[] } | undefined;
  /** Files under artifacts/, relative to it, `/` separators (temp files and contract.env left out). */
  readonly artifacts: readonly string[];
  /** Temp files left in the run root or artifacts/ (display paths). */
  readonly tempFiles: readonly string[];
  readonly lockState: LockState;
  /**
   * Set when artifacts/ is a symbolic link to a folder outside the project (`ctx.confineTo`): its one
   * `io/outside-project` finding. The folder is then not listed and artifacts/contract.env not read.
   */
  readonly outside?: Finding;
}

/** Values of a document that parsed (a document that did not is never read for state). */
export function valuesOf(doc: CheckedDocument | undefined): EnvValues | undefined {
  if (!doc?.usable || doc.value === undefined) return undefined;
  return doc.value as EnvValues;
}

function listFiles(dir: string, prefix = ''): string[] {
  let names: import('node:fs').Dirent[];
  try {
    names = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of names) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFiles(join(dir, e.name), rel));
    else if (e.isFile()) out.push(rel);
  }
  return out.sort();
}

/** Lock file names recognised in a run root when LOCK_FILE names no existing file there (run.lock is ckpt's). */
export const LOCK_NAMES = ['run.lock', 'lock', '.lock', 'state.lock'] as const;

const isFile = (p: string) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/**
 * The file LOCK_FILE names, when it resolves inside the run root: an absolute path under RUN_ROOT, `$RUN_ROOT/...`,
 * or a path relative to the run root. Undefined for anything outside it (ckpt never reads files outside a run).
 */
export function declaredLockPath(dir: string, state: EnvValues | undefined): string | undefined {
  const file = state?.LOCK_FILE?.trim();
  if (!file) return undefined;
  const runRoot = state?.RUN_ROOT?.trim().replace(/\/+$/, '');
  let rel: string | undefined;
  const dollar = /^\$\{?RUN_ROOT\}?\/(.+)$/.exec(file);
  if (dollar) rel = dollar[1];
  else if (runRoot && file.startsWith(`${runRoot}/`)) rel = file.slice(runRoot.length + 1);
  else if (!isAbsolute(file) && !file.includes('$')) rel = file;
  if (rel === undefined) return undefined;
  const norm = normalize(rel);
  if (norm === '.' || norm.startsWith('..') || isAbsolute(norm)) return undefined;
  return join(dir, norm);
}

/** Where a run's lock is: the file LOCK_FILE names inside the run root if it exists, else a recognised name. */
export function lockPathOf(
  dir: string,
  state: EnvValues | undefined,
  fileExists: (path: string) => boolean = isFile,
): string | undefined {
  const declared = declaredLockPath(dir, state);
  if (declared && fileExists(declared)) return declared;
  return LOCK_NAMES.map((n) => join(dir, n)).find(fileExists);
}

/** Reads a lock file as a lock, whatever its name (a path the catalog does not name is not detected by it). */
function readLock(path: string, ctx: TreeContext): { doc: CheckedDocument; offCatalog: boolean } {
  const doc = ctx.document(path);
  if (doc.kind === 'resumable/lock') return { doc, offCatalog: false };
  const entry = entriesOfDialect('resumable').find((e) => e.kind === 'resumable/lock');
  const own =
    entry &&
    checkEntry(
      path,
      ctx.display(path),
      ctx.confineTo === undefined ? {} : { confineTo: ctx.confineTo },
      entry,
    );
  return own ? { doc: own, offCatalog: true } : { doc, offCatalog: false };
}

/** Reads a run root: its env documents through the (caching) tree context, run.log, artifacts, the lock's state. */
export function loadRunRoot(dir: string, ctx: TreeContext, probe: LockProbe = systemProbe): RunRoot {
  const doc = (rel: string) => (entryExists(join(dir, rel)) ? ctx.document(join(dir, rel)) : undefined);
  const state = doc(RUN_FILES.state);
  const lockPath = lockPathOf(dir, valuesOf(state));
  const lockRead = lockPath === undefined ? undefined : readLock(lockPath, ctx);
  // Whether the lock's holder is alive is asked now: the runs must be derived again at each read, not kept.
  if (lockRead) ctx.volatile?.();
  const lock = lockRead?.doc;
  const logPath = join(dir, RUN_FILES.log);
  let log: RunRoot['log'];
  try {
    // Through the checkpoint reader: a FIFO or device named run.log is refused (no hang), a huge one not read.
    const text = readRegularFileUtf8(
      logPath,
      ctx.confineTo === undefined ? undefined : { confineTo: ctx.confineTo },
    );
    log = { file: ctx.display(logPath), lines: parseRunLog(text) };
  } catch {
    log = undefined;
  }
  const artifactsDir = join(dir, RUN_FILES.artifacts);
  const artifactsOutside = folderLinkedOutside(artifactsDir, ctx.confineTo);
  const artifactFiles = artifactsOutside ? [] : listFiles(artifactsDir);
  const tempFiles = [
    ...listFiles(dir).filter((f) => !f.startsWith(`${RUN_FILES.artifacts}/`) && !f.includes('/')),
    ...artifactFiles.map((f) => `${RUN_FILES.artifacts}/${f}`),
  ]
    .filter((f) => isTempName(basename(f)))
    .map((f) => ctx.display(join(dir, f)));
  return {
    dir,
    name: basename(dir),
    state,
    checklist: doc(RUN_FILES.checklist),
    lock,
    lockOffCatalog: lockRead?.offCatalog ?? false,
    contract: artifactsOutside ? undefined : doc(RUN_FILES.contract),
    log,
    artifacts: artifactFiles.filter((f) => !isTempName(basename(f)) && f !== 'contract.env'),
    tempFiles,
    lockState: lock
      ? classifyLock(lock.value as EnvValues | undefined, lock.usable, probe)
      : { state: 'none' },
    ...(artifactsOutside ? { outside: outsideFolderFinding(ctx.display(artifactsDir)) } : {}),
  };
}

/** True for a run-root folder: it holds state.env or checklist.state.env, directly under a `reports/` folder. */
export function isRunRoot(dir: string): boolean {
  return (
    basename(join(dir, '..')) === 'reports' &&
    (existsSync(join(dir, RUN_FILES.state)) || existsSync(join(dir, RUN_FILES.checklist)))
  );
}

// The other dialects' run stores hold no `reports/` of run roots, and a team run's events folder can hold 100k
// files: walking them cost `status` a directory listing as long as reading the run itself.
const SKIP = new Set(['node_modules', '.git', '.team', '.ulpi', '.agent-context']);

/** Every run root under a directory (searched recursively, skipping node_modules and .git), sorted. */
export function discoverRunRoots(projectDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 24) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (!e.isDirectory() || SKIP.has(e.name)) continue;
      const p = join(dir, e.name);
      if (e.name === 'reports') {
        for (const r of readdirSync(p, { withFileTypes: true })) {
          if (r.isDirectory() && isRunRoot(join(p, r.name))) out.push(join(p, r.name));
        }
      }
      walk(p, depth + 1);
    }
  };
  try {
    if (statSync(projectDir).isDirectory()) {
      if (isRunRoot(projectDir)) return [projectDir];
      walk(projectDir, 0);
    }
  } catch {
    return [];
  }
  return [...new Set(out)].sort();
}
