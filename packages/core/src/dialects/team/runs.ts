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
}

/** Loads a runs tree into models. */
export function loadTeamRunsAt(runsDir: string, ctx: TreeContext): TeamRuns {
  const tree = loadTeamTree(runsDir, ctx);
  const models = teamModels(tree);
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
  };
}

/** Every finding of one run: its documents' own findings, then the run's semantic rules. */
export function teamRunFindings(
  model: TeamRunModel,
  files: TeamRunFiles,
  display?: (abs: string) => string,
): Finding[] {
  const docs = [...(files.run ? [files.run] : []), ...files.events, ...files.approvals];
  return [...docs.flatMap((d) => d.findings), ...runFindings(model, display)].sort(compareFindings);
}

/** Every run of a loaded tree as RunViews; the tree's own findings go with the run status shows. */
export function teamRunViews(runs: TeamRuns, display: (abs: string) => string): RunFacts[] {
  return runs.models.map((m) => {
    const files = runs.tree.runs.find((r) => r.id === m.id)!;
    const isSel = runs.selected?.id === m.id;
    const findings = [...teamRunFindings(m, files, display), ...(isSel ? runs.treeFindings : [])];
    return teamRunView(m, files, display, findings, isSel);
  });
}
