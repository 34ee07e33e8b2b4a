import type { Tone } from '../view/run-view.js';
import type { Attention, AttentionLevel } from './reasons.js';

/** What triage order reads of a run: a RunView and a RunSummary both fit. */
export interface TriageFacts {
  readonly id: string;
  readonly dialect: string;
  readonly tone: Tone;
  readonly attention: Attention;
  readonly createdAt?: string;
  readonly updatedAt?: string;
}

/** The three groups of triage order: runs that need a person, runs still running, the rest. */
export type TriageGroup = 'attention' | 'running' | 'rest';

const LEVEL_RANK: Record<AttentionLevel, number> = { blocked: 0, action: 1, info: 2, none: 3 };

/** Which group of triage order a run falls in (`attention`: its level is action or blocked, as `needsPerson`). */
export function triageGroup(run: TriageFacts): TriageGroup {
  if (run.attention.level === 'action' || run.attention.level === 'blocked') return 'attention';
  return run.tone === 'active' ? 'running' : 'rest';
}

const GROUP_RANK: Record<TriageGroup, number> = { attention: 0, running: 1, rest: 2 };

/**
 * Triage order: runs that need a person first (`blocked` before `action`), then runs still running, then the
 * rest; within a group the most recently updated first (then created, then dialect and id, so the order is total).
 * The one order of `ckpt status`, `ckpt list`, the JSON documents and the viewer's runs page.
 */
export function compareForTriage(a: TriageFacts, b: TriageFacts): number {
  const ga = GROUP_RANK[triageGroup(a)];
  const gb = GROUP_RANK[triageGroup(b)];
  if (ga !== gb) return ga - gb;
  if (ga === 0) {
    const la = LEVEL_RANK[a.attention.level];
    const lb = LEVEL_RANK[b.attention.level];
    if (la !== lb) return la - lb;
  }
  const ta = a.updatedAt ?? a.createdAt ?? '';
  const tb = b.updatedAt ?? b.createdAt ?? '';
  if (ta !== tb) return ta < tb ? 1 : -1;
  if (a.dialect !== b.dialect) return a.dialect < b.dialect ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A copy of `runs` in triage order (see `compareForTriage`). */
export function triageOrder<T extends TriageFacts>(runs: readonly T[]): T[] {
  return [...runs].sort(compareForTriage);
}
