import { join, relative, resolve } from 'node:path';
import { createTreeContext } from '../../check/validate-files.js';
import type { RunFacts } from '../../view/run-view.js';
import type { TreeContext } from '../dialect.js';
import { type TeamResumePlan, teamResumePlan } from './resume.js';
import { loadTeamRunsAt, type TeamRuns, teamRunViews } from './runs.js';

/** The `.team/runs` directory of a project root. */
export function teamRunsDir(projectDir: string): string {
  return join(resolve(projectDir), '.team', 'runs');
}

function projectContext(projectDir: string): TreeContext {
  const dir = resolve(projectDir);
  return createTreeContext({}, (abs) => relative(dir, abs).replace(/\\/g, '/') || '.');
}

/** Loads the team runs of a project root (the directory holding `.team/`). A project without runs has none. */
export function loadTeamRuns(projectDir: string): TeamRuns {
  return loadTeamRunsAt(teamRunsDir(projectDir), projectContext(projectDir));
}

/** What `ckpt team status` shows, as plain data (`--json` prints it). */
export interface TeamStatus {
  readonly formatVersion: 1;
  readonly runsDir: string;
  readonly current: { readonly value: string | null; readonly state: TeamRuns['currentState'] };
  readonly runs: readonly {
    readonly id: string;
    readonly createdAt: string | null;
    readonly current: boolean;
  }[];
  /** The run shown (the one asked for, else `current`, else the newest); null when there is none. */
  readonly run: RunFacts | null;
  readonly resume: TeamResumePlan | null;
}

/** Status of a project's team runs, optionally of one run by id or unique id prefix. */
export function teamStatus(projectDir: string, opts: { run?: string } = {}): TeamStatus {
  const dir = resolve(projectDir);
  const display = (abs: string) => relative(dir, abs).replace(/\\/g, '/') || '.';
  const runs = loadTeamRunsAt(teamRunsDir(dir), createTreeContext({}, display));
  let model = runs.selected;
  if (opts.run !== undefined) {
    const exact = runs.models.find((m) => m.id === opts.run);
    const prefixed = runs.models.filter((m) => m.id.startsWith(opts.run!));
    model = exact ?? (prefixed.length === 1 ? prefixed[0] : undefined);
    if (!model) return { ...base(runs, display), run: null, resume: null };
  }
  const view = model ? teamRunViews(runs, display).find((v) => v.id === model.id)! : null;
  return { ...base(runs, display), run: view, resume: model ? teamResumePlan(model) : null };
}

function base(runs: TeamRuns, display: (abs: string) => string) {
  return {
    formatVersion: 1 as const,
    runsDir: display(runs.tree.runsDir),
    current: { value: runs.tree.current.value ?? null, state: runs.currentState },
    runs: runs.models.map((m) => ({
      id: m.id,
      createdAt: typeof m.run?.created_at === 'string' ? m.run.created_at : null,
      current: m.id === runs.selected?.id,
    })),
  };
}
