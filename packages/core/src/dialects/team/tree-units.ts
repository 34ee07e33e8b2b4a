import { readdirSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import type { Finding } from '../../findings/finding.js';
import { isTempName } from '../../fs/atomic.js';
import type { CheckedDocument, ListedEntry, TreeContext, UnitFacts } from '../dialect.js';
import { isRun, loadTeamRunFiles, readCurrent, type TeamRunFiles, type TeamTree } from './load.js';
import { projectHasher, treeFileFindings, unitRunFindings } from './tree-rules.js';

/** What the `.team/runs` root's rules need to know of one run (`checkTeamRun`). */
interface TeamRunFacts extends UnitFacts {
  readonly id: string;
  /** The run has a run.json (maybe unreadable). */
  readonly hasRunJson: boolean;
  /** It is a run: it has a run.json, events or approvals (an empty directory is an interrupted start-run). */
  readonly isRun: boolean;
}

/** A run directory: a directory directly in a `.team/runs` root whose name is not a temp file's. */
export function isTeamRunDir(absDir: string): boolean {
  const runs = dirname(absDir);
  return basename(runs) === 'runs' && basename(dirname(runs)) === '.team' && !isTempName(basename(absDir));
}

const noCurrent = (runsDir: string) => ({ path: join(runsDir, 'current'), exists: false, value: undefined });

/**
 * The tree rules of one run directory: its runs' semantic findings, an interrupted start-run, its leftover temp
 * files; and its facts for `checkTeamRoot`. Approved project files are hashed once per `pass` (runs share them).
 */
export function checkTeamRun(
  runDir: string,
  ctx: TreeContext,
  pass: Map<string, unknown> = new Map(),
): { findings: Finding[]; facts: TeamRunFacts } {
  const files = loadTeamRunFiles(runDir, ctx);
  const runsDir = dirname(runDir);
  const tree: TeamTree = {
    runsDir,
    projectDir: dirname(dirname(runsDir)),
    current: noCurrent(runsDir),
    runs: [files],
    tempFiles: [],
  };
  const key = `team-hasher\0${tree.projectDir}`;
  let hashOf = pass.get(key) as ((rel: string) => string | undefined) | undefined;
  if (!hashOf) {
    hashOf = projectHasher(tree.projectDir);
    pass.set(key, hashOf);
  }
  const findings = treeFileFindings(tree, ctx.display);
  // What the model's findings would be, without the model (validate reads nothing else of it).
  if (isRun(files)) for (const f of unitRunFindings(files, hashOf, ctx.display)) findings.push(f);
  return { findings, facts: { id: files.id, hasRunJson: files.run !== undefined, isRun: isRun(files) } };
}

/** Stands for a run's documents where only whether it has them matters (`isRun`, `newestRun`). */
const SOME: CheckedDocument = {
  path: '',
  file: '',
  kind: undefined,
  text: undefined,
  value: undefined,
  usable: false,
  sourceMap: undefined,
  findings: [],
};

/**
 * The rules of a `.team/runs` root that span runs, from each run's facts: `current` (names no run, or an older
 * one than the newest) and temp files left directly in the root. A run directory without facts is checked here.
 */
export function checkTeamRoot(
  runsDir: string,
  ctx: TreeContext,
  units: ReadonlyMap<string, UnitFacts>,
): Finding[] {
  let listing: readonly ListedEntry[];
  try {
    listing = ctx.listing?.(runsDir) ?? readdirSync(runsDir, { withFileTypes: true });
  } catch {
    listing = [];
  }
  const names = listing.map((e) => e.name).sort();
  const isDir = new Set(listing.filter((e) => e.isDirectory()).map((e) => e.name));
  const base = runsDir.endsWith(sep) ? runsDir : runsDir + sep;
  const out: Finding[] = [];
  const pass = new Map<string, unknown>();
  const runs: TeamRunFiles[] = [];
  const tempFiles: string[] = [];
  for (const name of names) {
    const dir = base + name;
    if (isTempName(name)) {
      tempFiles.push(dir);
      continue;
    }
    if (!isDir.has(name)) continue;
    let facts = units.get(dir) as TeamRunFacts | undefined;
    if (!facts) {
      const checked = checkTeamRun(dir, ctx, pass);
      for (const f of checked.findings) out.push(f);
      facts = checked.facts;
    }
    if (!facts.isRun) continue;
    runs.push({
      id: facts.id,
      dir,
      run: facts.hasRunJson ? SOME : undefined,
      events: facts.hasRunJson ? [] : [SOME],
      approvals: [],
      tempFiles: [],
    });
  }
  const tree: TeamTree = {
    runsDir,
    projectDir: dirname(dirname(runsDir)),
    current: readCurrent(runsDir, ctx.confineTo),
    runs,
    tempFiles,
  };
  return [...treeFileFindings(tree, ctx.display), ...out];
}
