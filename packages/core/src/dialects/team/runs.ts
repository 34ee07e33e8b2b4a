import { compareFindings, type Finding } from '../../findings/finding.js';
import type { RunFacts } from '../../view/run-view.js';
import type { TreeContext } from '../dialect.js';
import { isRun, loadTeamTree, newestRun, selectedRun, type TeamRunFiles, type TeamTree } from './load.js';
import type { TeamRunModel } from './model.js';
import { runFindings, teamModels, treeFileFindings } from './tree-rules.js';
import { teamRunView } from './view.js';

/** A project's team runs, read once: the tree, every run's model, and which run status shows. */
export interface TeamRuns {
  readonly projectDir: string;
  readonly tree: TeamTree;
  readonly models: readonly TeamRunModel[];
  /** The run `current` names, else the newest; undefined when there is no run. */
  readonly selected: TeamRunModel | undefined;
  /** `ok`, `missing` (newest used), `dangling` (newest used), `not-newest`. */
  readonly currentState: 'ok' | 'missing' | 'dangling' | 'not-newest' | 'no-runs';
  /** Findings of the tree's files: `current`, temp files, interrupted start-runs. */
  readonly treeFindings: readonly Finding[];
  /**
   * Whether models, views and what they are made of are kept by the documents they came from, for a next load
   * that gives the same documents (the project index); false for a context that loads once (`TreeContext.loadsOnce`).
   */
  readonly keep: boolean;
  /**
   * Whether the views are read for each run's one-line facts and attention only (`TreeContext.summariesOnly`, a
   * context that loads once): they then hold no more than those read (`teamRunView`'s `summaryOnly`).
   */
  readonly summariesOnly?: boolean;
}

/**
 * Loads a runs tree into models. Models and their tasks are kept by the documents they came from (model.ts), so a
 * context that gives the same documents again (the project index) gets the same models for unchanged runs.
 */
export function loadTeamRunsAt(runsDir: string, ctx: TreeContext): TeamRuns {
  const tree = loadTeamTree(runsDir, ctx);
  const keep = ctx.loadsOnce !== true;
  const models = teamModels(tree, keep);
  const sel = selectedRun(tree);
  const newest = newestRun(tree);
  const named = tree.current.value
    ? tree.runs.find((r) => r.id === tree.current.value && isRun(r))
    : undefined;
  const currentState = !newest
    ? 'no-runs'
    : !tree.current.exists
      ? 'missing'
      : !named
        ? 'dangling'
        : named.id < newest.id
          ? 'not-newest'
          : 'ok';
  return {
    projectDir: tree.projectDir,
    tree,
    models,
    selected: sel ? models.find((m) => m.id === sel.id) : undefined,
    currentState,
    treeFindings: treeFileFindings(tree, ctx.display),
    keep,
    ...(!keep && ctx.summariesOnly === true ? { summariesOnly: true } : {}),
  };
}

/**
 * Every finding of one run: its documents' own findings, then the run's semantic rules. A run folder linked out of
 * the project (its run.json stands for the folder, load.ts) has only that folder's one finding, as a root outside.
 */
export function teamRunFindings(
  model: TeamRunModel,
  files: TeamRunFiles,
  display?: (abs: string) => string,
  keep = true,
): Finding[] {
  if (files.run !== undefined && files.run.path === files.dir) return [...files.run.findings];
  const out: Finding[] = [];
  for (const list of [files.run ? [files.run] : [], files.events, files.approvals])
    for (const d of list) for (const f of d.findings) out.push(f);
  for (const f of runFindings(model, display, keep)) out.push(f);
  return out.sort(compareFindings);
}

/**
 * Views by model identity (model.ts keeps a run's model while its documents and approvals are the same), with
 * what else they were derived from: the display function, whether the run was the one status shows, and the
 * tree's findings it then carried.
 */
const derivedViews = new WeakMap<
  TeamRunModel,
  {
    readonly display: (abs: string) => string;
    readonly selected: boolean;
    readonly tree: string;
    readonly facts: RunFacts;
  }
>();

/** Every run of a loaded tree as RunViews; the tree's own findings go with the run status shows. */
export function teamRunViews(runs: TeamRuns, display: (abs: string) => string): RunFacts[] {
  const filesById = new Map(runs.tree.runs.map((r) => [r.id, r]));
  return runs.models.map((m) => {
    const files = filesById.get(m.id)!;
    const selected = runs.selected?.id === m.id;
    if (!runs.keep) {
      const findings = [...teamRunFindings(m, files, display, false), ...(selected ? runs.treeFindings : [])];
      return teamRunView(m, files, display, findings, selected, false, runs.summariesOnly === true);
    }
    const tree = selected ? JSON.stringify(runs.treeFindings) : '';
    const known = derivedViews.get(m);
    if (known && known.display === display && known.selected === selected && known.tree === tree)
      return known.facts;
    const findings = [...teamRunFindings(m, files, display), ...(selected ? runs.treeFindings : [])];
    const facts = teamRunView(m, files, display, findings, selected);
    derivedViews.set(m, { display, selected, tree, facts });
    return facts;
  });
}
