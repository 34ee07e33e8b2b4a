import type { Finding } from '../../findings/finding.js';
import { shellCommand } from '../../text/shell-quote.js';
import { declaredArtifacts } from './artifacts.js';
import { contractOf } from './contract.js';
import { describeHolder, type LockState } from './lock.js';
import {
  type EnvValues,
  FINALIZATION_FLAGS,
  pushProgress,
  stageComplete,
  stageDone,
  stagesOf,
} from './stages.js';

/** The four resume windows of the seed, plus `complete` (nothing left) and `unknown` (state unreadable). */
export type ResumeWindow =
  | 'before-mutation'
  | 'after-mutation-before-verification'
  | 'push-attempted-outcome-unknown'
  | 'push-confirmed-finalization-incomplete'
  | 'complete'
  | 'unknown';

export const WINDOW_TITLES: Record<ResumeWindow, string> = {
  'before-mutation': 'before mutation',
  'after-mutation-before-verification': 'after mutation, before verification',
  'push-attempted-outcome-unknown': 'push attempted, outcome unknown',
  'push-confirmed-finalization-incomplete': 'push confirmed, finalization incomplete',
  complete: 'complete',
  unknown: 'unknown (state unreadable)',
};

/** Something to look at in the real world before going on. */
export interface Observation {
  readonly what: 'HEAD' | 'worktree' | 'remote-sha' | 'artifacts' | 'report-targets' | 'lock';
  readonly command?: string;
  readonly expect: string;
}

/** The resume decision for one run root: where to go on from and what to check first. */
export interface ResumableResume {
  readonly window: ResumeWindow;
  /** The earliest stage whose flag is not 1 or whose checklist is incomplete; undefined when all are done. */
  readonly stage: string | undefined;
  readonly doneStages: readonly string[];
  /** Stop conditions: while any holds, nothing may run. */
  readonly stops: readonly string[];
  readonly observe: readonly Observation[];
  readonly finalization: Readonly<Record<string, boolean>>;
}

/** Findings whose code is a stop condition of the seed. */
export const STOP_CODES: ReadonlySet<string> = new Set([
  'parse/invalid-env-line',
  'parse/duplicate-key',
  'parse/invalid-utf8',
  'parse/empty-file',
  'io/unreadable',
  'resumable/missing-state',
  'resumable/missing-checklist',
  'resumable/unsupported-schema-version',
  'resumable/stage-done-checklist-incomplete',
  'resumable/missing-artifact',
  'resumable/current-stage-ahead',
  'resumable/run-identity-mismatch',
  'resumable/contract-drift',
  'resumable/duplicate-summary',
  'resumable/finalized-before-push',
  'resumable/lock-active',
]);

/** Which window a run is in, from its flags, push flags (PUSH_ATTEMPTED, PUSH_CONFIRMED) and push checks. */
export function resumeWindow(state: EnvValues, checklist: EnvValues): ResumeWindow {
  const stages = stagesOf(state, checklist);
  const push = pushProgress(stages, state, checklist);
  const allDone = stages.length > 0 && stages.every((s) => stageComplete(s, state, checklist));
  if (allDone && push.confirmed && FINALIZATION_FLAGS.every((f) => state[f] === '1')) return 'complete';
  // Finalization is post-confirmation only: a run that records no push keys but has begun finalizing has pushed.
  const finalizing = !push.hasPushChecks && FINALIZATION_FLAGS.some((f) => state[f] === '1');
  if (push.confirmed || finalizing) return 'push-confirmed-finalization-incomplete';
  if (push.attempted) return 'push-attempted-outcome-unknown';
  // The first stage is the preflight (worktree, contract, baseline): anything past it has mutated the repository.
  const later = stages.slice(1);
  const mutated = later.some(
    (s) =>
      stageDone(s, state) ||
      Object.entries(checklist).some(([k, v]) => k.startsWith(`CB_${s}_`) && v === '1'),
  );
  return mutated ? 'after-mutation-before-verification' : 'before-mutation';
}

/** The artifacts the done stages' gates need: those declared, or `<STAGE>-*` in a run ckpt made. */
function artifactsObservation(
  done: readonly string[],
  s: EnvValues,
  c: EnvValues,
  ckptRun: boolean,
): Observation {
  const needed = done.flatMap((st) => {
    const declared = declaredArtifacts(st, s, c);
    return declared.length > 0 ? declared : ckptRun ? [`${st}-*`] : [];
  });
  return {
    what: 'artifacts',
    expect:
      needed.length > 0
        ? `artifacts/${needed.join(', artifacts/')} present`
        : `the evidence of ${done.join(', ') || 'no stage yet'} that run.log names (the run declares no artifacts)`,
  };
}

function observations(
  window: ResumeWindow,
  s: EnvValues,
  c: EnvValues,
  recorded: EnvValues | undefined,
  done: readonly string[],
): Observation[] {
  const contract = contractOf(s, recorded);
  const repo = contract.repoRoot?.value ?? '<repo>';
  const branch = contract.branch?.value ?? '<branch>';
  const base = contract.basePin ? `${contract.basePin.value} (${contract.basePin.key})` : '<base pin>';
  const oldSha = contract.expectedOldSha;
  const old =
    oldSha === undefined
      ? '<expected old sha>'
      : oldSha.placeholder
        ? `the SHA the remote had before the first push (${oldSha.key}=${oldSha.value})`
        : oldSha.value;
  const targets = contract.reportTargets?.value ?? '';
  const head: Observation = {
    what: 'HEAD',
    command: shellCommand(['git', '-C', repo, 'rev-parse', 'HEAD']),
    expect: '',
  };
  const artifacts = artifactsObservation(done, s, c, recorded !== undefined);
  switch (window) {
    case 'before-mutation':
      return [
        {
          what: 'worktree',
          command: shellCommand(['git', '-C', repo, 'status', '--porcelain']),
          expect: 'empty: a clean worktree at the mutation boundary',
        },
        { ...head, expect: `${base}; anything else: stop` },
      ];
    case 'after-mutation-before-verification':
      return [
        {
          ...head,
          expect: `a descendant of ${contract.basePin?.value ?? '<base pin>'} holding the mutation of the done stages; redo a stage only if HEAD lacks it`,
        },
        {
          what: 'worktree',
          command: shellCommand(['git', '-C', repo, 'status', '--porcelain']),
          expect: 'empty, or only the changes of the current stage',
        },
        artifacts,
      ];
    case 'push-attempted-outcome-unknown':
      return [
        {
          what: 'remote-sha',
          command: shellCommand(['git', '-C', repo, 'ls-remote', 'origin', `refs/heads/${branch}`]),
          expect: `${old} (push did not land: push again with the lease) or local HEAD (push landed: set the confirm check); anything else is remote drift: stop`,
        },
        { ...head, expect: 'the commit that was pushed; compare it with the remote SHA' },
        artifacts,
      ];
    case 'push-confirmed-finalization-incomplete':
      return [
        {
          what: 'report-targets',
          expect: `each of ${targets || '(no report targets)'} holds the RUN_ID=${s.RUN_ID ?? ''} summary at most once`,
        },
        artifacts,
      ];
    default:
      return [];
  }
}

/**
 * The resume decision. Pure: state and checklist values, the run's findings, its lock state and the contract
 * recorded at bootstrap (artifacts/contract.env) when there is one.
 */
export function resumeDecision(
  state: EnvValues | undefined,
  checklist: EnvValues | undefined,
  findings: readonly Finding[],
  lock: LockState,
  recorded?: EnvValues,
): ResumableResume {
  const stops = findings.filter((f) => STOP_CODES.has(f.code)).map((f) => `${f.code}: ${f.message}`);
  if (!state || !checklist)
    return { window: 'unknown', stage: undefined, doneStages: [], stops, observe: [], finalization: {} };
  const stages = stagesOf(state, checklist);
  const isDone = (st: string) => stageComplete(st, state, checklist);
  const doneStages = stages.filter(isDone);
  const window = resumeWindow(state, checklist);
  const observe = observations(window, state, checklist, recorded, doneStages);
  if (lock.state === 'foreign' || lock.state === 'unreadable')
    observe.unshift({
      what: 'lock',
      expect: `the holder (${lock.holder ? describeHolder(lock.holder) : 'unreadable lock'}) is gone; then take over with \`ckpt resumable lock --steal\``,
    });
  const finalization = Object.fromEntries(FINALIZATION_FLAGS.map((f) => [f, state[f] === '1']));
  return { window, stage: stages.find((st) => !isDone(st)), doneStages, stops, observe, finalization };
}
