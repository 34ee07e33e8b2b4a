/** Stage names, checklist items and artifacts of a run: pure helpers over the parsed env values. */

export type EnvValues = Readonly<Record<string, string>>;

const STAGE = /^([SM])([0-9]+)$/;
const DONE_KEY = /^([SM][0-9]+)_DONE$/;
const CHECK_KEY = /^CB_([SM][0-9]+)_([A-Za-z0-9_]+)$/;
const REQUIRED_KEY = /^REQUIRED_([SM][0-9]+)$/;

/** The finalization flags, in the order finalization sets them. */
export const FINALIZATION_FLAGS = [
  'CANONICAL_STATE_UPDATED',
  'REPORT_APPENDED',
  'RUN_SUMMARY_UPDATED',
] as const;

/** ckpt's spellings of the immutable contract (what `ckpt resumable init` writes); every spelling is in contract.ts. */
export const CONTRACT_KEYS = [
  'CONTRACT_REPO_ROOT',
  'CONTRACT_BRANCH',
  'CONTRACT_BASE_PIN',
  'CONTRACT_EXPECTED_OLD_SHA',
  'CONTRACT_PLAN_PATH',
  'CONTRACT_REPORT_TARGETS',
] as const;

export function isStageName(s: string): boolean {
  return STAGE.test(s);
}

const TERMINAL = /^(done|complete|completed|finalized|finished)$/i;

/** A CURRENT_STAGE word that means "every stage is done" (DONE as ckpt writes it, and the words people use). */
export function isTerminalStage(s: string | undefined): boolean {
  return s !== undefined && TERMINAL.test(s.trim());
}

/** Orders stages: S before M (scripts use one family), then by number. */
export function compareStages(a: string, b: string): number {
  const ma = STAGE.exec(a);
  const mb = STAGE.exec(b);
  if (!ma || !mb) return a < b ? -1 : a > b ? 1 : 0;
  if (ma[1] !== mb[1]) return ma[1]! < mb[1]! ? -1 : 1;
  return Number(ma[2]) - Number(mb[2]);
}

/** Every stage the state or the checklist names, in order. */
export function stagesOf(state: EnvValues, checklist: EnvValues): string[] {
  const set = new Set<string>();
  for (const k of Object.keys(state)) {
    const m = DONE_KEY.exec(k);
    if (m) set.add(m[1]!);
  }
  for (const k of Object.keys(checklist)) {
    const m = CHECK_KEY.exec(k) ?? REQUIRED_KEY.exec(k);
    if (m) set.add(m[1]!);
  }
  return [...set].sort(compareStages);
}

export interface CheckItem {
  readonly item: string;
  readonly key: string;
  /** The raw value, undefined when a required item has no key. */
  readonly value: string | undefined;
  readonly done: boolean;
}

/** The checklist items of a stage: its CB_ keys plus any REQUIRED_<STAGE> item without a key (not done). */
export function checksOf(stage: string, checklist: EnvValues): CheckItem[] {
  const out = new Map<string, CheckItem>();
  const prefix = `CB_${stage}_`;
  for (const [key, value] of Object.entries(checklist)) {
    if (!key.startsWith(prefix) || !CHECK_KEY.test(key)) continue;
    const item = key.slice(prefix.length);
    out.set(item, { item, key, value, done: value === '1' });
  }
  for (const item of requiredItems(stage, checklist)) {
    if (!out.has(item)) out.set(item, { item, key: `${prefix}${item}`, value: undefined, done: false });
  }
  return [...out.values()].sort((a, b) => (a.item < b.item ? -1 : a.item > b.item ? 1 : 0));
}

function requiredItems(stage: string, checklist: EnvValues): string[] {
  const raw = checklist[`REQUIRED_${stage}`];
  if (raw === undefined) return [];
  return raw
    .split(/[\s,]+/)
    .filter((s) => s !== '' && s !== `CB_${stage}`)
    .map((s) => (s.startsWith(`CB_${stage}_`) ? s.slice(`CB_${stage}_`.length) : s));
}

/** A stage's checklist is complete when it has at least one item and every item is 1 (missing is never done). */
export function checklistComplete(stage: string, checklist: EnvValues): boolean {
  const items = checksOf(stage, checklist);
  return items.length > 0 && items.every((c) => c.done);
}

export function stageDone(stage: string, state: EnvValues): boolean {
  return state[`${stage}_DONE`] === '1';
}

/** The explicit push flags a run may keep (in state.env or checklist.state.env), beside its push checks. */
export const PUSH_FLAGS = ['PUSH_ATTEMPTED', 'PUSH_CONFIRMED'] as const;

/**
 * Push progress from the explicit flags `PUSH_ATTEMPTED` / `PUSH_CONFIRMED` and from the checklist's
 * `*_PUSH_ATTEMPTED` and `*_REMOTE_CONFIRMED` / `*_PUSH_CONFIRMED` items: either source saying 1 counts. A run
 * with no confirmation key at all counts as confirmed once every stage is done.
 */
export function pushProgress(
  stages: readonly string[],
  state: EnvValues,
  checklist: EnvValues,
): { hasPushChecks: boolean; attempted: boolean; confirmed: boolean } {
  const flag = (k: (typeof PUSH_FLAGS)[number]) => state[k] === '1' || checklist[k] === '1';
  const hasFlag = (k: (typeof PUSH_FLAGS)[number]) => state[k] !== undefined || checklist[k] !== undefined;
  const confirmKeys = Object.keys(checklist).filter((k) =>
    /^CB_[SM][0-9]+_(REMOTE_CONFIRMED|PUSH_CONFIRMED)$/.test(k),
  );
  const attemptKeys = Object.keys(checklist).filter((k) => /^CB_[SM][0-9]+_PUSH_ATTEMPTED$/.test(k));
  const allDone = stages.length > 0 && stages.every((s) => stageDone(s, state));
  const hasConfirmation = confirmKeys.length > 0 || hasFlag('PUSH_CONFIRMED');
  const hasPushChecks = hasConfirmation || attemptKeys.length > 0 || hasFlag('PUSH_ATTEMPTED');
  const confirmed =
    flag('PUSH_CONFIRMED') ||
    (confirmKeys.length > 0 && confirmKeys.every((k) => checklist[k] === '1')) ||
    (!hasConfirmation && allDone);
  const attempted = confirmed || flag('PUSH_ATTEMPTED') || attemptKeys.some((k) => checklist[k] === '1');
  return { hasPushChecks, attempted, confirmed };
}

/**
 * Whether the run records that its push is not confirmed: a confirmation key (PUSH_CONFIRMED,
 * CB_<STAGE>_REMOTE_CONFIRMED / _PUSH_CONFIRMED) that is not 1, or an attempt key that is 0. A run that records
 * neither (the skill names no push keys) cannot be judged, and is not.
 */
export function pushRecordedUnconfirmed(
  stages: readonly string[],
  state: EnvValues,
  checklist: EnvValues,
): boolean {
  const push = pushProgress(stages, state, checklist);
  if (push.confirmed) return false;
  const confirmKeys = Object.keys(checklist).filter((k) =>
    /^CB_[SM][0-9]+_(REMOTE_CONFIRMED|PUSH_CONFIRMED)$/.test(k),
  );
  const attemptValues = [
    state.PUSH_ATTEMPTED,
    checklist.PUSH_ATTEMPTED,
    ...Object.keys(checklist)
      .filter((k) => /^CB_[SM][0-9]+_PUSH_ATTEMPTED$/.test(k))
      .map((k) => checklist[k]),
  ];
  return (
    confirmKeys.length > 0 ||
    state.PUSH_CONFIRMED !== undefined ||
    checklist.PUSH_CONFIRMED !== undefined ||
    attemptValues.includes('0')
  );
}

/** `<STAGE>_CHECKLIST_DONE` (state.env, else the checklist): the run's own word on the stage's checklist. */
export function checklistDoneFlag(stage: string, state: EnvValues, checklist: EnvValues): string | undefined {
  const key = `${stage}_CHECKLIST_DONE`;
  return state[key] ?? checklist[key];
}

/**
 * A stage is complete when its flag is 1, no checklist item of it is open and it does not say
 * `<STAGE>_CHECKLIST_DONE=0`. A done stage with no checklist item at all is complete (the skill's gate is "required
 * checks incomplete", and it declares none); the rules report it as unchecked.
 */
export function stageComplete(stage: string, state: EnvValues, checklist: EnvValues): boolean {
  return (
    stageDone(stage, state) &&
    checksOf(stage, checklist).every((c) => c.done) &&
    checklistDoneFlag(stage, state, checklist) !== '0'
  );
}

/** `20261128T101500Z` → `2026-11-28T10:15:00Z`; undefined for anything else. */
export function runIdTime(runId: string | undefined): string | undefined {
  const m = /^([0-9]{4})([0-9]{2})([0-9]{2})T([0-9]{2})([0-9]{2})([0-9]{2})Z$/.exec(runId ?? '');
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z` : undefined;
}

/** A run id for a time: `date -u +%Y%m%dT%H%M%SZ`. */
export function runIdFor(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.[0-9]+Z$/, 'Z');
}
