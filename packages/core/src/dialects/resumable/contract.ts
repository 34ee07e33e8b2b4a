/**
 * The immutable contract of a run and every spelling real runs use for it. The skill names what to persist (repo
 * root, branch, base pin, expected old SHA, plan path, report targets), not the keys; this table is the one place
 * ckpt lists the keys it reads for each item.
 */
import type { EnvValues } from './stages.js';

export interface ContractItem {
  readonly id: 'repoRoot' | 'branch' | 'basePin' | 'expectedOldSha' | 'planPath' | 'reportTargets';
  readonly label: string;
  /** Spellings of the same value, in the order they are preferred; the first is ckpt's (`CONTRACT_*`). */
  readonly keys: readonly string[];
  /**
   * Read only when no key above is set, in this order, and never compared with them: a run may keep its work branch
   * (BRANCH) beside the branch it targets or started from (TARGET_BRANCH, BASE_BRANCH).
   */
  readonly fallbackKeys: readonly string[];
  /** A value that stands for "not known yet" (never compared, never drift). */
  readonly placeholder?: string;
  /** A key of the skill's "set at minimum" list: its absence is already a schema error. */
  readonly minimumKey?: string;
  /** Comma- or space-separated list: compared as a list. An empty value means an empty list. */
  readonly list?: boolean;
  /** A commit SHA: compared without case. */
  readonly sha?: boolean;
  /** A path: compared without a trailing slash. */
  readonly path?: boolean;
}

export const CONTRACT_ITEMS: readonly ContractItem[] = [
  {
    id: 'repoRoot',
    label: 'repo root',
    keys: ['CONTRACT_REPO_ROOT', 'REPO_ROOT'],
    fallbackKeys: [],
    minimumKey: 'REPO_ROOT',
    path: true,
  },
  {
    id: 'branch',
    label: 'branch',
    keys: ['CONTRACT_BRANCH', 'BRANCH'],
    fallbackKeys: ['TARGET_BRANCH', 'BASE_BRANCH'],
  },
  {
    id: 'basePin',
    label: 'base pin',
    keys: ['CONTRACT_BASE_PIN', 'BASE_PIN_SHA', 'BASE_PIN'],
    fallbackKeys: [],
    sha: true,
  },
  {
    id: 'expectedOldSha',
    label: 'expected old SHA',
    keys: ['CONTRACT_EXPECTED_OLD_SHA', 'EXPECTED_OLD_SHA', 'EXPECTED_OLD_REMOTE_SHA'],
    fallbackKeys: [],
    placeholder: 'UNKNOWN',
    sha: true,
  },
  {
    id: 'planPath',
    label: 'plan path',
    keys: ['CONTRACT_PLAN_PATH', 'PLAN_PATH'],
    fallbackKeys: [],
    minimumKey: 'PLAN_PATH',
    path: true,
  },
  {
    id: 'reportTargets',
    label: 'report targets',
    keys: ['CONTRACT_REPORT_TARGETS', 'REPORT_TARGETS', 'REPORT_TARGET'],
    fallbackKeys: [],
    list: true,
  },
];

/** Every key ckpt reads a contract item from. */
export const CONTRACT_SPELLINGS: readonly string[] = CONTRACT_ITEMS.flatMap((i) => [
  ...i.keys,
  ...i.fallbackKeys,
]);

/** Where a contract value was read: a state.env key, or ckpt's record artifacts/contract.env. */
export interface ContractValue {
  readonly value: string;
  readonly key: string;
  readonly fromRecord: boolean;
  /** The value is the item's placeholder (`UNKNOWN`): set, but not known yet. */
  readonly placeholder: boolean;
}

export type Contract = Readonly<Record<ContractItem['id'], ContractValue | undefined>>;

/** A value as compared: trimmed, lists joined with `,`, SHAs lower-cased, paths without a trailing `/`. */
export function normalizeContractValue(item: ContractItem, value: string): string {
  const v = value.trim();
  if (item.list)
    return v
      .split(/[\s,]+/)
      .filter((s) => s !== '')
      .join(',');
  if (item.sha) return v.toLowerCase();
  if (item.path && v.length > 1) return v.replace(/\/+$/, '');
  return v;
}

/**
 * Two values of an item are the same when they normalize alike; for a SHA, also when one is an abbreviation of
 * the other (at least 7 hex digits, as `git rev-parse --short` prints), since people write either.
 */
export function sameContractValue(item: ContractItem, a: string, b: string): boolean {
  const x = normalizeContractValue(item, a);
  const y = normalizeContractValue(item, b);
  if (x === y) return true;
  if (!item.sha || !/^[0-9a-f]+$/.test(x) || !/^[0-9a-f]+$/.test(y)) return false;
  const [short, long] = x.length < y.length ? [x, y] : [y, x];
  return short.length >= 7 && long.startsWith(short);
}

const isSet = (item: ContractItem, v: string | undefined): v is string =>
  v !== undefined && (item.list === true || v.trim() !== '');

/** The spellings of an item present in `values`, in preference order; else the first fallback that is set. */
export function spellingsOf(item: ContractItem, values: EnvValues): { key: string; value: string }[] {
  const found = item.keys.flatMap((key) => (isSet(item, values[key]) ? [{ key, value: values[key] }] : []));
  if (found.length > 0) return found;
  const key = item.fallbackKeys.find((k) => isSet(item, values[k]));
  return key === undefined ? [] : [{ key, value: values[key] as string }];
}

/** The contract a run states: from state.env (any spelling, a known value before a placeholder), else the record. */
export function contractOf(state: EnvValues, recorded?: EnvValues): Contract {
  const out: Partial<Record<ContractItem['id'], ContractValue | undefined>> = {};
  for (const item of CONTRACT_ITEMS) {
    const found = spellingsOf(item, state);
    const known = found.find((f) => f.value.trim() !== item.placeholder) ?? found[0];
    const rec = recorded?.[item.keys[0]!];
    out[item.id] = known
      ? { ...known, fromRecord: false, placeholder: known.value.trim() === item.placeholder }
      : isSet(item, rec)
        ? { value: rec, key: item.keys[0]!, fromRecord: true, placeholder: rec.trim() === item.placeholder }
        : undefined;
  }
  return out as Contract;
}

/** Two values of one contract item that disagree: `key` holds `value`, `against` (a key or the record) `expected`. */
export interface ContractConflict {
  readonly item: ContractItem;
  readonly key: string;
  readonly value: string;
  readonly against: string;
  readonly expected: string;
  readonly fromRecord: boolean;
}

/**
 * Contract drift across spellings: two spellings in state.env that disagree, and any spelling that differs from
 * the record made at bootstrap. Placeholders (`UNKNOWN`) and empty values never drift.
 */
export function contractConflicts(state: EnvValues, recorded?: EnvValues): ContractConflict[] {
  const out: ContractConflict[] = [];
  for (const item of CONTRACT_ITEMS) {
    const comparable = spellingsOf(item, state).filter(
      (f) => f.value.trim() !== item.placeholder && (item.list || f.value.trim() !== ''),
    );
    const rec = recorded?.[item.keys[0]!];
    const first = comparable[0];
    if (rec !== undefined && rec.trim() !== item.placeholder) {
      for (const f of comparable)
        if (!sameContractValue(item, f.value, rec))
          out.push({ item, ...f, against: item.keys[0]!, expected: rec, fromRecord: true });
      continue;
    }
    if (!first) continue;
    for (const f of comparable.slice(1))
      if (!sameContractValue(item, f.value, first.value))
        out.push({ item, ...f, against: first.key, expected: first.value, fromRecord: false });
  }
  return out;
}

/**
 * The items no spelling (and no record) supplies. Items with a key of the "set at minimum" list are left out:
 * the schema already reports that key missing.
 */
export function missingContractItems(state: EnvValues, recorded?: EnvValues): ContractItem[] {
  const c = contractOf(state, recorded);
  return CONTRACT_ITEMS.filter((item) => item.minimumKey === undefined && c[item.id] === undefined);
}
