import { basename } from 'node:path';
import { shellQuote } from '../../text/shell-quote.js';
import { valueText } from '../../text/value-text.js';
import { isObject, own, unitEntries, unitStatus } from './model.js';

/**
 * The resume set as the original prints it: key order of `units`, `dep_blocked` maps unit → chain root. A root is
 * a unit id as written in `dependsOn`: a string, except in a malformed document whose `dependsOn` holds other
 * values (`null`, a number), which the original prints as they are.
 */
export interface UlpiResumeSet {
  readonly skip: string[];
  readonly eligible: string[];
  readonly dep_blocked: Record<string, unknown>;
}

/**
 * A unit's dependencies as written: the array's values (looked up as property keys, as JavaScript does: `null`
 * names the unit "null"); a string `dependsOn` (which crashes the original) counts as one dependency, so a unit
 * never becomes eligible by a typo; other non-arrays count as none.
 */
function rawDeps(unit: unknown): readonly unknown[] {
  const d = own(unit, 'dependsOn');
  if (typeof d === 'string') return d === '' ? [] : [d];
  return Array.isArray(d) ? d : [];
}

/**
 * The skip-done contract: visit units in key order; `done` skips; a unit whose dependencies (unknown ids count)
 * are all done is eligible (pending, in_progress, blocked and a stale dep_blocked alike); otherwise it is
 * dep_blocked, pointing at the chain root found by following the first not-done dependency from the first
 * missing one until a unit with none (a seen-set stops cycles). A null unit or a string dependsOn does not throw.
 */
export function ulpiResumeSet(doc: unknown): UlpiResumeSet {
  const entries = unitEntries(doc);
  const byId = new Map(entries);
  const done = (d: unknown) => unitStatus(byId.get(valueText(d))) === 'done';
  // The value each key was first written as, so a root prints as the document wrote it.
  const written = new Map<string, unknown>();
  const firstOpen = (id: string) => {
    const d = rawDeps(byId.get(id)).find((x) => !done(x));
    if (d === undefined) return undefined;
    const key = valueText(d);
    if (!written.has(key)) written.set(key, d);
    return key;
  };
  const rootOf = chainRoots(firstOpen);
  const skip: string[] = [];
  const eligible: string[] = [];
  const depBlocked: Record<string, unknown> = {};
  for (const [id, unit] of entries) {
    if (unitStatus(unit) === 'done') {
      skip.push(id);
      continue;
    }
    const first = firstOpen(id);
    if (first === undefined) {
      eligible.push(id);
      continue;
    }
    const root = rootOf(first);
    Object.defineProperty(depBlocked, id, {
      value: written.has(root) ? written.get(root) : root,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { skip, eligible, dep_blocked: depBlocked };
}

/**
 * The chain root of every start, memoized, in linear total time. `next` makes a functional graph; the root walk
 * from `v` (follow `next` until none, or until a node already seen) ends at the terminal of its chain, or, when
 * the chain runs into a cycle, at the cycle node it enters by. So a node on a cycle is its own root (the walk goes
 * round and comes back to it) and any other node has its successor's root: roots depend on the entry point only
 * through that rule, which is what makes them safe to memoize.
 */
function chainRoots(next: (id: string) => string | undefined): (start: string) => string {
  const memo = new Map<string, string>();
  return (start) => {
    const path: string[] = [];
    const onPath = new Map<string, number>();
    let v = start;
    let root: string | undefined;
    while (root === undefined) {
      const known = memo.get(v);
      if (known !== undefined) root = known;
      else if (onPath.has(v)) {
        // The walk closed a cycle at v: its nodes are their own roots; the tail before it ends at v.
        const at = onPath.get(v)!;
        for (const c of path.splice(at)) memo.set(c, c);
        root = v;
      } else {
        onPath.set(v, path.length);
        path.push(v);
        const n = next(v);
        if (n === undefined) root = v;
        else v = n;
      }
    }
    for (const p of path) memo.set(p, root);
    return memo.get(start)!;
  };
}

/** How a run's persisted `launch` may be resumed. */
export type UlpiLaunch =
  | { readonly kind: 'no-launch' }
  | { readonly kind: 'codex-cli'; readonly run: string; readonly argv: string[]; readonly shell: string }
  | { readonly kind: 'legacy-workflow'; readonly launch: Record<string, unknown> };

/** A shell word: bare when it is a safe token, else quoted for POSIX sh (the one quoting of core's text/). */
export const ulpiShellQuote = (s: string): string => shellQuote(s);

/**
 * Classifies the persisted launch descriptor: `no-launch` (absent, not an object, empty scriptPath), `codex-cli`
 * (basename `pipeline.mjs`, `args.command === "resume"`, `args.run` a non-empty string: runnable, with argv and a
 * shell-safe command), else `legacy-workflow` (migration only, never a runnable command).
 */
export function classifyUlpiLaunch(doc: unknown): UlpiLaunch {
  const launch = own(doc, 'launch');
  const script = own(launch, 'scriptPath');
  if (!isObject(launch) || typeof script !== 'string' || script.trim() === '') return { kind: 'no-launch' };
  const args = own(launch, 'args');
  const run = own(args, 'run');
  if (
    basename(script) === 'pipeline.mjs' &&
    own(args, 'command') === 'resume' &&
    typeof run === 'string' &&
    run.trim() !== ''
  ) {
    const argv = ['pipeline.mjs', 'resume', '--run', run];
    return { kind: 'codex-cli', run, argv, shell: `node ${argv.map(ulpiShellQuote).join(' ')}` };
  }
  return { kind: 'legacy-workflow', launch };
}

/** The typed resume descriptor of `run-status --resume --json`. */
export function ulpiResumeDescriptor(doc: unknown): Record<string, unknown> {
  const resumeSet = ulpiResumeSet(doc);
  const cls = classifyUlpiLaunch(doc);
  if (cls.kind === 'codex-cli')
    return {
      runnable: true,
      kind: 'codex-cli',
      run: cls.run,
      command: 'node',
      argv: cls.argv,
      shell: cls.shell,
      resumeSet,
    };
  if (cls.kind === 'legacy-workflow')
    return {
      runnable: false,
      kind: 'legacy-workflow',
      migrationOnly: true,
      reason:
        'persisted launch is a Claude Workflow() script, not a Codex CLI recipe: it is not runnable as a shell command',
      legacyLaunch: cls.launch,
      resumeSet,
    };
  return {
    runnable: false,
    kind: 'no-launch',
    migrationOnly: true,
    reason:
      'no Codex-native launch recipe was persisted (pre-coordinator or hand-rolled run): re-approve/relaunch via pipeline.mjs',
    resumeSet,
  };
}
