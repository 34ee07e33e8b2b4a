import type { Finding } from '../../findings/finding.js';
import type { CheckedDocument, TreeContext } from '../dialect.js';
import { ORCHESTRATOR_STATE_V1 } from './constants.js';
import { findingIn, obj, short, strings } from './doc-util.js';
import { type AgentContextIterationFiles, type AgentContextTree, loadAgentContextTree } from './load.js';
import { parsePhaseKey } from './phases.js';

/** Saved transitions an orchestrator state has made, at least, when iteration N's records are on disk. */
export const savesBeforePersist = (iteration: number): number => 6 * iteration;

/** Rules across the files of one `.agent-context/` tree: the fingerprint chain, and revision against iterations. */
export function checkAgentContextTree(root: string, ctx: TreeContext): Finding[] {
  return treeFindings(loadAgentContextTree(root, ctx));
}

export function treeFindings(tree: AgentContextTree): Finding[] {
  const out: Finding[] = [];
  for (const list of tree.iterations.values()) out.push(...chainFindings(list));
  for (const [id, doc] of tree.orchestrator) {
    const v = obj(doc.value);
    if (!doc.usable || !v || v.schemaVersion !== ORCHESTRATOR_STATE_V1) continue;
    // Iterations written before this state was created are an earlier run's: a run again after the orchestrator
    // folder was deleted rewrites 001.. and leaves the higher-numbered ones of the earlier run on disk.
    const createdAt = typeof v.createdAt === 'string' ? v.createdAt : undefined;
    const persisted = (tree.iterations.get(id) ?? []).filter(
      (it) => (it.iteration || it.decision) && !writtenBefore(it, createdAt),
    );
    const last = persisted.at(-1);
    if (!last) continue;
    const problems: string[] = [];
    // A revision already behind its own phase keys is reported by the document rule; say it once.
    const ownKeys = new Set(
      (strings(v.completedPhases) ?? []).map((k) => parsePhaseKey(k)?.key).filter(Boolean),
    );
    if (typeof v.revision === 'number' && v.revision < ownKeys.size) continue;
    if (typeof v.revision === 'number' && v.revision < savesBeforePersist(last.number))
      problems.push(
        `revision ${v.revision} is lower than the ${savesBeforePersist(last.number)} saves persisting iteration ${last.number} needs`,
      );
    if (typeof v.currentIteration === 'number' && v.currentIteration < last.number)
      problems.push(
        `the state is at iteration ${v.currentIteration}, but iteration ${last.number} was persisted`,
      );
    if (problems.length > 0)
      out.push(
        findingIn(
          doc,
          typeof v.revision === 'number' ? '/revision' : '/currentIteration',
          'agent-context/revision-behind',
          `${problems.join('; ')}: the state is older than its iterations on disk`,
        ),
      );
  }
  return out;
}

/** When an iteration's records were written (`generatedAt` of iteration.json, else of decision.json). */
function generatedAt(it: AgentContextIterationFiles): string | undefined {
  for (const doc of [it.iteration, it.decision]) {
    const g = doc?.usable ? obj(doc.value)?.generatedAt : undefined;
    if (typeof g === 'string') return g;
  }
  return undefined;
}

function writtenBefore(it: AgentContextIterationFiles, time: string | undefined): boolean {
  const g = generatedAt(it);
  return time !== undefined && g !== undefined && g < time;
}

function fpValue(doc: AgentContextIterationFiles['iteration']): string | undefined {
  if (!doc?.usable) return undefined;
  const v = obj(obj(obj(doc.value)?.convergence)?.fingerprint)?.value;
  return typeof v === 'string' ? v : undefined;
}

function chainFindings(list: readonly AgentContextIterationFiles[]): Finding[] {
  const out: Finding[] = [];
  const onDisk = new Map<string, number>();
  for (const it of list) {
    const value = fpValue(it.iteration) ?? fpValue(it.decision);
    if (value !== undefined && !onDisk.has(value)) onDisk.set(value, it.number);
  }
  let prev: { number: number; value: string | undefined; at: string | undefined } | undefined;
  for (const it of list) {
    // An iteration written before its predecessor is left from an earlier run whose lower iterations a later run
    // rewrote: its previousFingerprint is that earlier run's, not a link to the iteration now below it.
    const older = prev?.at !== undefined && writtenBefore(it, prev.at);
    for (const doc of [it.iteration, it.decision]) {
      if (!doc?.usable) continue;
      const conv = obj(obj(doc.value)?.convergence);
      if (!conv) continue;
      const stored = conv.previousFingerprint;
      const expected = prev && prev.number === it.number - 1 && !older ? prev.value : undefined;
      // The orchestrator seeds the first iteration of a new state with the last persisted iteration report, so a
      // task rerun after its orchestrator state was deleted carries the earlier run's last fingerprint.
      if (it.number === 1 && typeof stored === 'string') out.push(rerunNote(doc, stored, onDisk.get(stored)));
      else if (expected !== undefined && stored !== expected)
        out.push(
          findingIn(
            doc,
            typeof stored === 'string' ? '/convergence/previousFingerprint' : '/convergence',
            'agent-context/broken-fingerprint-chain',
            `previousFingerprint ${typeof stored === 'string' ? `${short(stored)}…` : 'is absent and'} is not the fingerprint of iteration ${it.number - 1} (${short(expected)}…)`,
          ),
        );
    }
    const value = fpValue(it.iteration) ?? fpValue(it.decision);
    prev = { number: it.number, value, at: generatedAt(it) };
  }
  return out;
}

function rerunNote(doc: CheckedDocument, stored: string, sameAs: number | undefined): Finding {
  const origin =
    sameAs === undefined
      ? 'the last iteration of an earlier run of this task'
      : sameAs === 1
        ? 'iteration 1 itself: the earlier run stopped at the same state'
        : `iteration ${sameAs} on disk, left from an earlier run of this task`;
  return findingIn(
    doc,
    '/convergence/previousFingerprint',
    'agent-context/rerun-fingerprint',
    `iteration 1 has a previousFingerprint (${short(stored)}…): the fingerprint of ${origin}`,
    "OpenCode++ writes this when a task is run again after its orchestrator state was deleted; iterations above the new last one may still be the earlier run's",
  );
}
