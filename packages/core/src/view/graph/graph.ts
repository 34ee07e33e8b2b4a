import { dependencyCycles } from '../../dialects/ulpi/graph.js';
import { valueText } from '../../text/value-text.js';
import { type ResumePlan, RUN_VIEW_FORMAT_VERSION, type RunView, type Tone } from '../run-view.js';

/** Where a node stands in the run's resume plan (as core's plan says, never recomputed here). */
export type PlanState = 'skip' | 'run-next' | 'blocked' | 'needs-person' | 'none';

export interface GraphNode {
  readonly id: string;
  /** `ghost`: a dependency that names no unit of the run. */
  readonly kind: 'unit' | 'phase' | 'stage' | 'ghost';
  /** Index in `run.units`, for units. */
  readonly index?: number;
  readonly status: string;
  readonly tone: Tone;
  readonly plan: PlanState;
  /** The resume plan's reason for this node. */
  readonly reason?: string;
  /** For a blocked unit: the unit it ultimately waits for (ulpi's `dep_blocked` root). */
  readonly blockedBy?: string;
  readonly inCycle: boolean;
}

/** An edge from a dependency to the node that depends on it (the order work flows). */
export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  /** Both ends are in the same dependency cycle. */
  readonly cycle: boolean;
  /** `from` is not a unit of the run. */
  readonly unknown: boolean;
}

/** `GET /api/runs/<dialect>/<id>/graph`: the run's shape with its resume plan on it. */
export interface GraphDocument {
  readonly formatVersion: number;
  readonly run: { readonly dialect: string; readonly id: string };
  /** `dependencies` (units' dependsOn), `phases` or `stages` (a chain in order), `none` (nothing to draw). */
  readonly shape: 'dependencies' | 'phases' | 'stages' | 'none';
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  /** Each dependency cycle's units. */
  readonly cycles: readonly (readonly string[])[];
  /** Dependencies that name no unit. */
  readonly unknown: readonly string[];
}

type PlanOf = (id: string) => { plan: PlanState; reason?: string; blockedBy?: string };

function planLookup(run: RunView): PlanOf {
  const r: ResumePlan = run.resume;
  const at = new Map<string, { plan: PlanState; reason: string }>();
  const put = (items: ResumePlan['skip'], plan: PlanState) => {
    for (const x of items) if (!at.has(x.id)) at.set(x.id, { plan, reason: x.reason });
  };
  put(r.blocked, 'blocked');
  put(r.needsPerson, 'needs-person');
  put(r.runNext, 'run-next');
  put(r.skip, 'skip');
  const native = r.native as { dep_blocked?: unknown } | undefined;
  const roots =
    run.dialect === 'ulpi' && native && typeof native.dep_blocked === 'object' && native.dep_blocked
      ? (native.dep_blocked as Record<string, unknown>)
      : {};
  return (id) => {
    const p = at.get(id);
    const root = Object.hasOwn(roots, id) ? valueText(roots[id]) : undefined;
    return p ? { ...p, ...(root !== undefined ? { blockedBy: root } : {}) } : { plan: 'none' };
  };
}

function chain(
  run: RunView,
  shape: 'phases' | 'stages',
  items: readonly { id: string; status: string; tone: Tone }[],
): GraphDocument {
  const planOf = planLookup(run);
  const nodes: GraphNode[] = items.map((p, i) => ({
    id: p.id,
    kind: shape === 'phases' ? 'phase' : 'stage',
    ...(shape === 'stages' ? { index: i } : {}),
    status: p.status,
    tone: p.tone,
    ...planOf(p.id),
    inCycle: false,
  }));
  const edges = items
    .slice(1)
    .map((p, i) => ({ from: items[i]!.id, to: p.id, cycle: false, unknown: false }));
  return {
    formatVersion: RUN_VIEW_FORMAT_VERSION,
    run: { dialect: run.dialect, id: run.id },
    shape,
    nodes,
    edges,
    cycles: [],
    unknown: [],
  };
}

/**
 * The run's shape as a graph: units and their `dependsOn` (cycles and unknown dependencies marked, an unknown one
 * as a ghost node), else the phases (agent-context) or stages (resumable) in order. Every node carries where
 * the run's resume plan puts it: skip, run next, blocked (and by what), needs a person.
 */
export function runGraph(run: RunView): GraphDocument {
  const planOf = planLookup(run);
  if (!run.units.some((u) => u.dependsOn.length > 0)) {
    if (run.dialect === 'agent-context' && run.phases.length > 0) return chain(run, 'phases', run.phases);
    if (run.dialect === 'resumable' && run.units.length > 0) return chain(run, 'stages', run.units);
    return {
      formatVersion: RUN_VIEW_FORMAT_VERSION,
      run: { dialect: run.dialect, id: run.id },
      shape: 'none',
      nodes: [],
      edges: [],
      cycles: [],
      unknown: [],
    };
  }
  const ids = run.units.map((u) => u.id);
  const known = new Set(ids);
  const deps = new Map(run.units.map((u) => [u.id, u.dependsOn]));
  const cycles = dependencyCycles(ids, deps);
  const compOf = new Map<string, number>();
  cycles.forEach((c, i) => {
    for (const id of c) compOf.set(id, i);
  });
  const nodes: GraphNode[] = run.units.map((u, index) => ({
    id: u.id,
    kind: 'unit',
    index,
    status: u.status,
    tone: u.tone,
    ...planOf(u.id),
    inCycle: compOf.has(u.id),
  }));
  const unknown: string[] = [];
  const edges: GraphEdge[] = [];
  for (const u of run.units)
    for (const d of new Set(u.dependsOn)) {
      const isUnknown = !known.has(d);
      if (isUnknown && !unknown.includes(d)) unknown.push(d);
      const c = compOf.get(d);
      edges.push({ from: d, to: u.id, cycle: c !== undefined && c === compOf.get(u.id), unknown: isUnknown });
    }
  for (const g of unknown)
    nodes.push({
      id: g,
      kind: 'ghost',
      status: 'unknown',
      tone: 'neutral',
      plan: 'none',
      reason: 'not a unit of this run: it never becomes done',
      inCycle: false,
    });
  return {
    formatVersion: RUN_VIEW_FORMAT_VERSION,
    run: { dialect: run.dialect, id: run.id },
    shape: 'dependencies',
    nodes,
    edges,
    cycles,
    unknown,
  };
}
