import type { Finding } from '../../findings/finding.js';
import type { CheckedDocument } from '../dialect.js';
import { contractConflicts, missingContractItems } from './contract.js';
import { RUN_FILES } from './load.js';
import { at } from './rule-helpers.js';
import type { EnvValues } from './stages.js';

const DRIFT_HINT = 'immutable contract drift: stop and start a new run';

/**
 * The immutable contract, read from any of its spellings (contract.ts) or ckpt's record: an item nothing supplies
 * (warning), two spellings that disagree, or a value that differs from the record (drift, a stop condition).
 */
export function contractRules(
  doc: CheckedDocument,
  s: EnvValues,
  recorded: EnvValues | undefined,
): Finding[] {
  const out: Finding[] = [];
  for (const item of missingContractItems(s, recorded))
    out.push(
      at(
        doc,
        undefined,
        'resumable/contract-missing',
        `the contract has no ${item.label}: none of ${[...item.keys, ...item.fallbackKeys].join(', ')} is set${recorded ? ` and ${RUN_FILES.contract} lacks it` : ''}`,
      ),
    );
  for (const c of contractConflicts(s, recorded))
    out.push(
      at(
        doc,
        c.key,
        'resumable/contract-drift',
        c.fromRecord
          ? `${c.key} is "${c.value}" but the ${c.item.label} was "${c.expected}" at bootstrap (${RUN_FILES.contract})`
          : `${c.key} is "${c.value}" but ${c.against} is "${c.expected}": two spellings of the ${c.item.label} disagree`,
        DRIFT_HINT,
      ),
    );
  return out;
}
