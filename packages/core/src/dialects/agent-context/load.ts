import { type Dirent, existsSync, readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { isTempName } from '../../fs/atomic.js';
import { folderLinkedOutside } from '../../fs/folder-link.js';
import { entryExists } from '../../fs/read-checkpoint.js';
import type { CheckedDocument, TreeContext } from '../dialect.js';

/** One iteration folder `runs/<run-id>/iterations/<NNN>/`. */
export interface AgentContextIterationFiles {
  readonly number: number;
  readonly dir: string;
  readonly iteration: CheckedDocument | undefined;
  readonly decision: CheckedDocument | undefined;
}

/** Everything under one `.agent-context/` directory, parsed and checked once. */
export interface AgentContextTree {
  readonly root: string;
  /** Task states by task directory name (null-prototype map semantics via Map). */
  readonly tasks: Map<string, CheckedDocument>;
  /** Orchestrator states by run directory name. */
  readonly orchestrator: Map<string, CheckedDocument>;
  /** Iteration folders by run directory name, in iteration order. */
  readonly iterations: Map<string, AgentContextIterationFiles[]>;
  /** Temp files left by interrupted writes (absolute paths). */
  readonly tempFiles: string[];
  /**
   * Folders that are symbolic links out of the project (`ctx.confineTo`), absolute paths: `runs/`,
   * `orchestrator/`, a run folder in them, or an `iterations/` folder. Never listed: each is one finding.
   */
  readonly outside: string[];
}

function dirs(path: string): string[] {
  try {
    return readdirSync(path, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * The folders in `path` (as `dirs`), unless `path` is a symbolic link out of `confineTo`: then none, and `path`
 * goes into `outside`. With `confineTo`, a link in `path` to a folder outside goes into `outside` too (a link to a
 * folder inside is skipped, as `dirs` does); only links are resolved.
 */
function confinedDirs(path: string, confineTo: string | undefined, outside: string[]): string[] {
  if (confineTo === undefined) return dirs(path);
  if (folderLinkedOutside(path, confineTo)) {
    outside.push(path);
    return [];
  }
  let list: Dirent[];
  try {
    list = readdirSync(path, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))
    if (e.isDirectory()) out.push(e.name);
    else if (e.isSymbolicLink() && folderLinkedOutside(join(path, e.name), confineTo))
      outside.push(join(path, e.name));
  return out;
}

function files(path: string): string[] {
  try {
    return readdirSync(path, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/** Temp names of OpenCode++ (`state.json.tmp-<pid>-…`) and of ckpt (`.state.json.ckpt-tmp-…`). */
export function isAgentContextTemp(name: string): boolean {
  return isTempName(name) || /\.json\.tmp-[0-9]/.test(name);
}

/**
 * Reads a `.agent-context/` directory: task states (`runs/<id>/state.json`), orchestrator states
 * (`orchestrator/<id>/state.json`) and iteration records. Other documents in those folders (a `run.json`
 * manifest, phase artifacts, traces) are not read; temp files are listed, never read as state.
 */
export function loadAgentContextTree(root: string, ctx: TreeContext): AgentContextTree {
  const tasks = new Map<string, CheckedDocument>();
  const orchestrator = new Map<string, CheckedDocument>();
  const iterations = new Map<string, AgentContextIterationFiles[]>();
  const tempFiles: string[] = [];
  const outside: string[] = [];
  const runs = join(root, 'runs');
  for (const id of confinedDirs(runs, ctx.confineTo, outside)) {
    const dir = join(runs, id);
    for (const f of files(dir)) if (isAgentContextTemp(f)) tempFiles.push(join(dir, f));
    if (entryExists(join(dir, 'state.json'))) tasks.set(id, ctx.document(join(dir, 'state.json')));
    const itRoot = join(dir, 'iterations');
    const list: AgentContextIterationFiles[] = [];
    for (const n of confinedDirs(itRoot, ctx.confineTo, outside)) {
      if (!/^[0-9]+$/.test(n)) continue;
      const d = join(itRoot, n);
      const doc = (name: string) => (entryExists(join(d, name)) ? ctx.document(join(d, name)) : undefined);
      list.push({
        number: Number(n),
        dir: d,
        iteration: doc('iteration.json'),
        decision: doc('decision.json'),
      });
    }
    if (list.length > 0)
      iterations.set(
        id,
        list.sort((a, b) => a.number - b.number),
      );
  }
  const orch = join(root, 'orchestrator');
  for (const id of confinedDirs(orch, ctx.confineTo, outside)) {
    const dir = join(orch, id);
    for (const f of files(dir)) if (isAgentContextTemp(f)) tempFiles.push(join(dir, f));
    if (entryExists(join(dir, 'state.json'))) orchestrator.set(id, ctx.document(join(dir, 'state.json')));
  }
  return { root, tasks, orchestrator, iterations, tempFiles, outside };
}

/** The `.agent-context` directory a path lies in. */
export function agentContextRootOf(absPath: string): string | undefined {
  const i = absPath.lastIndexOf(`${sep}.agent-context${sep}`);
  return i < 0 ? undefined : absPath.slice(0, i + '.agent-context'.length + 1);
}

const SKIP = new Set(['node_modules', '.git']);

/** Every `.agent-context` directory under a project (the project itself, or up to 3 levels down). */
export function discoverAgentContextRoots(projectDir: string, depth = 3): string[] {
  const out: string[] = [];
  const walk = (dir: string, left: number) => {
    const here = join(dir, '.agent-context');
    if (existsSync(here) && statSync(here).isDirectory()) out.push(here);
    if (left === 0) return;
    for (const d of dirs(dir)) if (!SKIP.has(d) && !d.startsWith('.')) walk(join(dir, d), left - 1);
  };
  if (projectDir.endsWith(`${sep}.agent-context`) || projectDir === '.agent-context') return [projectDir];
  walk(projectDir, depth);
  return out;
}
