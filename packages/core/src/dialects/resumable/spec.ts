/**
 * The hand-written part of the resumable spec page (schemas/resumable/README.md, rendered by
 * packages/core/scripts/spec-page.mjs). The contract table is built from contract.ts, so the page and the reader
 * never disagree.
 */
import { CONTRACT_ITEMS } from './contract.js';
import { FINALIZATION_FLAGS, PUSH_FLAGS } from './stages.js';

const code = (k: string) => `\`${k}\``;

function contractTable(): string[] {
  const rows = CONTRACT_ITEMS.map((i) => {
    const notes = [
      i.minimumKey
        ? `${code(i.minimumKey)} is on the skill's "set at minimum" list (missing: schema error)`
        : '',
      i.fallbackKeys.length > 0
        ? `${i.fallbackKeys.map(code).join(', ')} is read only when no other spelling is set, and never compared with them (a run may name the branch it started from beside the one it pushes to)`
        : '',
      i.placeholder
        ? `${code(i.placeholder)} means "not known yet" (before the first push): set, never drift`
        : '',
      i.list ? 'a list (comma- or space-separated), compared item by item; empty means no targets' : '',
      i.sha ? 'compared without case' : '',
      i.path ? 'compared without a trailing `/`' : '',
    ].filter((n) => n !== '');
    return `| ${i.label} | ${i.keys.map(code).join(', ')}${i.fallbackKeys.length ? `, then ${i.fallbackKeys.map(code).join(', ')}` : ''} | ${notes.join('; ') || ' '} |`;
  });
  return ['| item | spellings, preferred first | notes |', '|---|---|---|', ...rows];
}

/** Markdown shown on the spec page after the document table. */
export function resumableSpecSection(): string {
  return [
    '## How ckpt reads a run',
    '',
    'The skill names what to persist, not the keys, and real runs spell the same things differently. ckpt reads',
    'every spelling below; `ckpt resumable init` writes the first one and records the contract once in',
    '`artifacts/contract.env`.',
    '',
    '### Contract key spellings',
    '',
    'The immutable contract is read from state.env under any of these keys, or from `artifacts/contract.env`',
    'when state.env sets none of them. An item no spelling supplies is a `resumable/contract-missing` warning;',
    'two spellings that disagree, or a value that differs from `artifacts/contract.env`, is',
    '`resumable/contract-drift` (an error and a stop condition).',
    '',
    ...contractTable(),
    '',
    '### Push state',
    '',
    `Push progress comes from the explicit flags ${PUSH_FLAGS.map(code).join(' and ')} (in state.env or`,
    'checklist.state.env) as well as from checklist items `CB_<STAGE>_PUSH_ATTEMPTED` and',
    '`CB_<STAGE>_REMOTE_CONFIRMED` / `CB_<STAGE>_PUSH_CONFIRMED`; either source saying `1` counts. A run with no',
    'confirmation key at all counts as confirmed once every stage is done. The resume windows and',
    `\`resumable/finalized-before-push\` (${FINALIZATION_FLAGS.map(code).join(', ')}, all optional) use the same reading.`,
    '',
    '### Stage gates and artifacts',
    '',
    'A stage is `S<n>` or `M<n>`, done when `<STAGE>_DONE=1`. Its checklist is complete when every',
    '`CB_<STAGE>_<ITEM>` key (and every item `REQUIRED_<STAGE>` names) is `1`; a run may also keep',
    '`<STAGE>_CHECKLIST_DONE`, and a done stage with `<STAGE>_CHECKLIST_DONE=0` is incomplete.',
    '',
    'The skill states no file-name convention for artifacts, so a done stage needs only the artifacts the run',
    'declares: `<STAGE>_ARTIFACTS` (comma-separated) or a key named `<STAGE>_..._ARTIFACT...` (e.g.',
    '`S2_DIFF_ARTIFACT`), in state.env or checklist.state.env, naming files relative to `artifacts/`, under',
    '`$ARTIFACT_ROOT` or under the recorded `ARTIFACT_ROOT` (`*` matches within a name; a number is a flag, not a',
    "name). Runs made by `ckpt resumable init` (they hold `artifacts/contract.env`) follow ckpt's convention:",
    'a done stage that declares nothing has at least one `artifacts/<STAGE>-*` file.',
    '',
    '### Other keys',
    '',
    'Keys such as `LAST_COMPLETED_STAGE`, `LAST_GATE_RESULT`, `LAST_GATE_FAILURE_REASON`, `LAST_RESUME_HINT` and',
    '`STAGE_STATUS` are read as notes: they give no finding. Any other task-specific key is valid too;',
    '`ckpt validate --strict` reports keys the schema does not name.',
  ].join('\n');
}
