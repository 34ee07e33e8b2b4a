import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONTRACT_ITEMS,
  CONTRACT_SPELLINGS,
  contractConflicts,
  contractOf,
  missingContractItems,
} from './contract.js';
import { CONTRACT_KEYS } from './stages.js';

const sha = (c: string) => c.repeat(40);
const plain = {
  REPO_ROOT: '/srv/repo',
  BRANCH: 'main',
  BASE_PIN_SHA: sha('a'),
  EXPECTED_OLD_SHA: sha('b'),
  PLAN_PATH: 'docs/plan.md',
  REPORT_TARGET: 'CHANGELOG.md',
};
const recorded = {
  CONTRACT_REPO_ROOT: '/srv/repo',
  CONTRACT_BRANCH: 'main',
  CONTRACT_BASE_PIN: sha('a'),
  CONTRACT_EXPECTED_OLD_SHA: sha('b'),
  CONTRACT_PLAN_PATH: 'docs/plan.md',
  CONTRACT_REPORT_TARGETS: 'CHANGELOG.md',
};

describe('CONTRACT_ITEMS', () => {
  it("should list ckpt's own CONTRACT_* key first for every item", () => {
    expect(CONTRACT_ITEMS.map((i) => i.keys[0])).toEqual([...CONTRACT_KEYS]);
  });

  it('should name every spelling once', () => {
    expect(new Set(CONTRACT_SPELLINGS).size).toBe(CONTRACT_SPELLINGS.length);
  });
});

describe('contractOf', () => {
  it('should read the plain names a person following the skill writes', () => {
    const c = contractOf(plain);
    expect(c.branch).toMatchObject({ value: 'main', key: 'BRANCH', fromRecord: false });
    expect(c.basePin?.key).toBe('BASE_PIN_SHA');
    expect(c.reportTargets?.value).toBe('CHANGELOG.md');
    expect(missingContractItems(plain)).toEqual([]);
  });

  it('should prefer a known expected old SHA over UNKNOWN and keep UNKNOWN as a placeholder', () => {
    expect(contractOf({ EXPECTED_OLD_REMOTE_SHA: 'UNKNOWN' }).expectedOldSha).toMatchObject({
      placeholder: true,
      value: 'UNKNOWN',
    });
    expect(
      contractOf({ EXPECTED_OLD_REMOTE_SHA: 'UNKNOWN', EXPECTED_OLD_SHA: sha('c') }).expectedOldSha?.value,
    ).toBe(sha('c'));
  });

  it('should read BASE_BRANCH only when no other branch spelling is set', () => {
    expect(contractOf({ BASE_BRANCH: 'main' }).branch?.key).toBe('BASE_BRANCH');
    expect(contractOf({ BASE_BRANCH: 'main', TARGET_BRANCH: 'release/2.5' }).branch?.value).toBe(
      'release/2.5',
    );
  });

  it('should never call a work branch beside its target branch drift', () => {
    const values = { BRANCH: 'feature/login-throttle', TARGET_BRANCH: 'main', BASE_BRANCH: 'main' };
    expect(contractConflicts(values)).toEqual([]);
    expect(contractOf(values).branch?.value).toBe('feature/login-throttle');
    expect(contractOf({ TARGET_BRANCH: 'main' }).branch?.key).toBe('TARGET_BRANCH');
  });

  it('should fall back to the record and report only items nothing supplies', () => {
    expect(contractOf({}, recorded).basePin).toMatchObject({ fromRecord: true, value: sha('a') });
    expect(missingContractItems({}, recorded)).toEqual([]);
    expect(missingContractItems({ REPO_ROOT: '/r', PLAN_PATH: 'p' }).map((i) => i.id)).toEqual([
      'branch',
      'basePin',
      'expectedOldSha',
      'reportTargets',
    ]);
  });
});

describe('contractConflicts', () => {
  it('should report two spellings of one item that disagree, at the later spelling', () => {
    const d = contractConflicts({ ...plain, BASE_PIN: sha('c') });
    expect(d.map((x) => [x.key, x.against])).toEqual([['BASE_PIN', 'BASE_PIN_SHA']]);
  });

  it('should compare every spelling with the record', () => {
    const d = contractConflicts({ ...plain, BRANCH: 'dev' }, recorded);
    expect(d.map((x) => [x.key, x.fromRecord])).toEqual([['BRANCH', true]]);
    expect(contractConflicts(plain, recorded)).toEqual([]);
  });

  it('should not call BASE_BRANCH beside a target branch, UNKNOWN, case or list spacing drift', () => {
    expect(
      contractConflicts({
        TARGET_BRANCH: 'release/2.5',
        BASE_BRANCH: 'main',
        EXPECTED_OLD_REMOTE_SHA: 'UNKNOWN',
        EXPECTED_OLD_SHA: sha('b'),
        BASE_PIN: sha('A'),
        BASE_PIN_SHA: sha('a'),
        REPORT_TARGETS: 'a.md, b.md',
        REPORT_TARGET: 'a.md,b.md',
        REPO_ROOT: '/srv/repo/',
        CONTRACT_REPO_ROOT: '/srv/repo',
      }),
    ).toEqual([]);
  });

  it('should read an abbreviated SHA (7+ hex digits) as the full one it abbreviates, and no shorter', () => {
    const full = '5e642998b28ead7d5130d9d82ab170e70c6ce0cb';
    expect(contractConflicts({ ...plain, BASE_PIN_SHA: full, BASE_PIN: '5E64299' })).toEqual([]);
    expect(
      contractConflicts({ ...plain, BASE_PIN_SHA: full }, { ...recorded, CONTRACT_BASE_PIN: full }),
    ).toEqual([]);
    expect(
      contractConflicts({ ...plain, BASE_PIN_SHA: '5e64299' }, { ...recorded, CONTRACT_BASE_PIN: full }),
    ).toEqual([]);
    expect(contractConflicts({ ...plain, BASE_PIN_SHA: full, BASE_PIN: '5e642' }).map((c) => c.key)).toEqual([
      'BASE_PIN',
    ]);
    expect(
      contractConflicts({ ...plain, BASE_PIN_SHA: full, BASE_PIN: '5e64290' }).map((c) => c.key),
    ).toEqual(['BASE_PIN']);
  });

  it('should never report drift when every spelling holds the same value', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CONTRACT_ITEMS),
        fc.string({ minLength: 1 }),
        fc.subarray([0, 1, 2], { minLength: 1 }),
        (item, value, picks) => {
          const state: Record<string, string> = {};
          for (const i of picks) if (item.keys[i]) state[item.keys[i]!] = value;
          return contractConflicts(state).length === 0;
        },
      ),
    );
  });
});
