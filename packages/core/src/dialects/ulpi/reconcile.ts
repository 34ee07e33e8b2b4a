import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { ulpiUsage } from './errors.js';
import { upsertUlpiItems } from './items.js';
import { isObject, own, str } from './model.js';
import { mutateUlpiDoc, readUlpiDoc, type UlpiWriteOptions } from './store.js';

function git(cwd: string, args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.error) throw ulpiUsage(`cannot run git: ${r.error.message}`, r.error);
  if (r.status !== 0)
    throw ulpiUsage(`git ${args[0]} failed: ${(r.stderr || '').trim().split('\n')[0] ?? ''}`);
  return r.stdout;
}

/** The trailers of a commit message: `Key: value` lines of its last paragraph (all lines must be trailers). */
function parseTrailers(body: string): Map<string, string> {
  const paras = body.trim().split(/\n\s*\n/);
  const out = new Map<string, string>();
  if (paras.length < 2) return out;
  const lines = paras[paras.length - 1]!.split('\n');
  if (!lines.every((l) => /^[A-Za-z0-9-]+:\s/.test(l) || /^\s/.test(l))) return out;
  for (const l of lines) {
    const m = /^([A-Za-z0-9-]+):\s*(.*?)\s*$/.exec(l);
    if (m && !out.has(m[1]!)) out.set(m[1]!, m[2]!);
  }
  return out;
}

/**
 * `Task-Id` trailers of the commits reachable from `ref`, unit id → sha of the newest commit naming it (git log
 * walks newest first). A commit only on a `task/<id>` branch is not reachable from the integration ref, so it
 * does not count. A ref that does not resolve is an error (exit 1) rather than "nothing integrated".
 */
export function ulpiTrailers(repoDir: string, ref: string): Map<string, string> {
  git(repoDir, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  const raw = git(repoDir, ['log', '--format=%H%x1f%B%x1e', ref, '--']);
  const out = new Map<string, string>();
  for (const rec of raw.split('\x1e')) {
    const s = rec.replace(/^\s+/, '');
    const us = s.indexOf('\x1f');
    if (us < 0) continue;
    const id = parseTrailers(s.slice(us + 1)).get('Task-Id');
    if (id && !out.has(id)) out.set(id, s.slice(0, us).trim());
  }
  return out;
}

export interface UlpiReconcileResult {
  readonly ref: string;
  /** Unit ids with a reachable trailer. */
  readonly integrated: string[];
  /** Units marked done from a trailer. */
  readonly reconciled: string[];
  /** Done units without a reachable trailer (a `stale-done:<unit>` blocker item was added). */
  readonly staleDone: string[];
}

/** The integration ref of a run: `pipeline.integrationRef`, else a legacy launch's `workingBranch`, else HEAD. */
export function ulpiIntegrationRef(doc: unknown): string {
  return (
    str(own(doc, 'pipeline'), 'integrationRef') ??
    str(own(own(doc, 'launch'), 'args'), 'workingBranch') ??
    'HEAD'
  );
}

/**
 * Reconciles a run with git: a unit with a reachable `Task-Id` trailer that is not done becomes done with note
 * `reconciled-from-trailer:<sha>`; a done unit without one gets the blocker item `stale-done:<unit>` (a done unit
 * is never demoted). One locked write; nothing is written when nothing changes.
 */
export function reconcileUlpiFromGit(
  file: string,
  o: { repoDir?: string; ref?: string } = {},
  opts: UlpiWriteOptions = {},
): UlpiReconcileResult {
  const ref = o.ref ?? ulpiIntegrationRef(readUlpiDoc(file, opts.fs));
  const trailers = ulpiTrailers(o.repoDir ?? dirname(file), ref);
  const plan = (units: [string, unknown][]) => ({
    reconciled: units.filter(([id, u]) => trailers.has(id) && own(u, 'status') !== 'done').map(([id]) => id),
    staleDone: units.filter(([id, u]) => !trailers.has(id) && own(u, 'status') === 'done').map(([id]) => id),
  });
  const units0 = Object.entries((own(readUlpiDoc(file, opts.fs), 'units') as Record<string, unknown>) ?? {});
  const integrated = units0.filter(([id]) => trailers.has(id)).map(([id]) => id);
  const first = plan(units0);
  if (first.reconciled.length === 0 && first.staleDone.length === 0) return { ref, integrated, ...first };
  return mutateUlpiDoc(
    file,
    (doc, stamp) => {
      const units = isObject(doc.units) ? doc.units : {};
      const p = plan(Object.entries(units));
      for (const id of p.reconciled) {
        const u = isObject(units[id])
          ? (units[id] as Record<string, unknown>)
          : { status: 'pending', dependsOn: [], note: '', createdAt: stamp };
        units[id] = u;
        u.status = 'done';
        u.note = `reconciled-from-trailer:${trailers.get(id)}`;
        u.finishedAt = stamp;
        u.updatedAt = stamp;
      }
      if (p.staleDone.length > 0) {
        if (!Array.isArray(doc.openItems)) throw ulpiUsage(`${file}: openItems is not an array`);
        upsertUlpiItems(
          doc.openItems,
          p.staleDone.map((id) => ({
            id: `stale-done:${id}`,
            kind: 'stale-done',
            severity: 'blocker',
            issue: `unit ${id} is marked done but no commit is reachable from ${ref}: stale/lost integration; not trusted`,
          })),
          stamp,
        );
      }
      return { ref, integrated, ...p };
    },
    opts,
  );
}
