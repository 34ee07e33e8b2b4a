import { basename, dirname } from 'node:path';
import { compareFindings, type Finding } from '../../findings/finding.js';
import type { CheckedDocument, Dialect, TreeContext } from '../dialect.js';
import { resumableCodes } from './codes.js';
import { discoverRunRoots, loadRunRoot, type RunRoot } from './load.js';
import { checkRunRoot } from './rules.js';
import { resumableSpecSection } from './spec.js';
import { runRootView } from './view.js';

const KINDS = {
  state: 'resumable/state-env',
  checklist: 'resumable/checklist-env',
  lock: 'resumable/lock',
  contract: 'resumable/contract-env',
} as const;

function detectKind(value: unknown, candidates: readonly string[]): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const keys = Object.keys(v);
  const pick = (k: string) => (candidates.includes(k) ? k : undefined);
  if ('STATE_SCHEMA_VERSION' in v || ('RUN_ID' in v && 'CURRENT_STAGE' in v)) return pick(KINDS.state);
  if ('CHECKLIST_SCHEMA_VERSION' in v || (keys.length > 0 && keys.every((k) => k.startsWith('CB_'))))
    return pick(KINDS.checklist);
  if ('pid' in v && 'host' in v) return pick(KINDS.lock);
  if (keys.length > 0 && keys.every((k) => k.startsWith('CONTRACT_') || k === 'RUN_ID'))
    return pick(KINDS.contract);
  return undefined;
}

/** The run root a resumable document belongs to (artifacts/contract.env belongs to its parent's parent). */
function rootOf(absPath: string, kind: string | undefined): string | undefined {
  if (!kind?.startsWith('resumable/')) return undefined;
  const dir = dirname(absPath);
  const root = kind === KINDS.contract && basename(dir) === 'artifacts' ? dirname(dir) : dir;
  // Only folders laid out as reports/<task>-<run-id>/ are run roots; a stray state.env is checked on its own.
  return basename(dirname(root)) === 'reports' ? root : undefined;
}

/** Every finding of a run root's files: what the per-file pipeline found, then the semantic rules. */
export function runRootFindings(root: RunRoot): Finding[] {
  const docs = [root.state, root.checklist, root.lock, root.contract].filter(
    (d): d is CheckedDocument => d !== undefined,
  );
  const own = [...docs.flatMap((d) => d.findings), ...checkRunRoot(root)];
  if (root.outside) own.push(root.outside);
  return own.sort(compareFindings);
}

/** The `resumable` dialect: Resumable Execution run roots of env files. */
export const resumableDialect: Dialect = {
  id: 'resumable',
  title: 'Resumable Execution run roots',
  codes: resumableCodes,
  specSection: resumableSpecSection(),
  detectKind,
  rootOf,
  checkTree(root: string, ctx: TreeContext) {
    const r = loadRunRoot(root, ctx);
    // A lock read from a path the catalog does not name (LOCK_FILE's) has no per-file pass: its findings come here.
    return [...(r.lockOffCatalog && r.lock ? r.lock.findings : []), ...checkRunRoot(r)];
  },
  discover: discoverRunRoots,
  loadRunViews(root: string, ctx: TreeContext) {
    const r = loadRunRoot(root, ctx);
    return [runRootView(r, ctx.display, runRootFindings(r))];
  },
};
