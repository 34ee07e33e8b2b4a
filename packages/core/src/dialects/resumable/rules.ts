import { basename } from 'node:path';
import type { Finding } from '../../findings/finding.js';
import type { CheckedDocument } from '../dialect.js';
import { declaredLockPath, type RunRoot, valuesOf } from './load.js';
import { at, inFile, SUPPORTED_SCHEMA_VERSION } from './rule-helpers.js';

export { SUPPORTED_SCHEMA_VERSION };

import { missingArtifacts } from './artifacts.js';
import { contractRules } from './rules-contract.js';
import { lockRules, logRules } from './rules-lock-log.js';
import {
  checklistDoneFlag,
  checksOf,
  compareStages,
  type EnvValues,
  FINALIZATION_FLAGS,
  isStageName,
  isTerminalStage,
  pushRecordedUnconfirmed,
  stageDone,
  stagesOf,
} from './stages.js';

/** Every semantic rule over one run root. Pure: the run root holds everything read from disk. */
export function checkRunRoot(root: RunRoot): Finding[] {
  const out: Finding[] = [];
  const state = valuesOf(root.state);
  const checklist = valuesOf(root.checklist);
  if (!root.state && root.checklist)
    out.push(inFile(root.checklist.file, 1, 'resumable/missing-state', `${root.name}/state.env is missing`));
  if (root.state && !root.checklist)
    out.push(
      at(root.state, undefined, 'resumable/missing-checklist', `${root.name}/checklist.state.env is missing`),
    );
  if (state && root.state) out.push(...stateRules(root, root.state, state));
  if (checklist && root.checklist)
    out.push(...versionRule(root.checklist, checklist, 'CHECKLIST_SCHEMA_VERSION'));
  if (state && checklist && root.state) out.push(...gateRules(root, root.state, state, checklist));
  out.push(...lockRules(root, state));
  out.push(...logRules(root, state));
  for (const file of root.tempFiles)
    out.push(
      inFile(file, 1, 'resumable/leftover-temp-file', `temp file left by an interrupted write: ${file}`),
    );
  return out;
}

/** `1`, `1.0`, `v1`: a version whose major number is 1 (the one ckpt reads). */
const SUPPORTED_VERSION = new RegExp(`^v?0*${SUPPORTED_SCHEMA_VERSION}(\\.[0-9]+)*$`, 'i');

function versionRule(doc: CheckedDocument, values: EnvValues, key: string): Finding[] {
  const v = values[key]?.trim();
  if (v === undefined || v === '')
    return [
      at(
        doc,
        v === undefined ? undefined : key,
        'resumable/schema-version-missing',
        `${key} is not set: read as version ${SUPPORTED_SCHEMA_VERSION}`,
      ),
    ];
  if (SUPPORTED_VERSION.test(v)) return [];
  return [
    at(
      doc,
      key,
      'resumable/unsupported-schema-version',
      `${key}="${v}": ckpt reads version ${SUPPORTED_SCHEMA_VERSION} ("1", "1.0" or "v1")`,
    ),
  ];
}

const trimSlash = (p: string) => p.trim().replace(/\/+$/, '');

/** RUN_ID against RUN_ROOT and the folder: another run id mixes runs (error), another name only is a warning. */
function identityRules(root: RunRoot, doc: CheckedDocument, s: EnvValues): Finding[] {
  const out: Finding[] = [];
  // Any RUN_ID is compared: scripts may use another id style than `date -u +%Y%m%dT%H%M%SZ`.
  const runId = s.RUN_ID?.trim() || undefined;
  if (runId === undefined) return out;
  const expected = s.TASK_NAME !== undefined ? `${s.TASK_NAME.trim()}-${runId}` : undefined;
  const named = (name: string) => name === expected || (expected === undefined && name.endsWith(`-${runId}`));
  const rootBase = s.RUN_ROOT?.trim() ? basename(trimSlash(s.RUN_ROOT)) : undefined;
  if (rootBase !== undefined && !rootBase.endsWith(runId) && !rootBase.includes('$'))
    out.push(
      at(
        doc,
        'RUN_ROOT',
        'resumable/run-identity-mismatch',
        `RUN_ROOT "${s.RUN_ROOT}" names another run than RUN_ID=${runId}`,
      ),
    );
  else if (rootBase !== undefined && !rootBase.includes('$') && !named(rootBase))
    out.push(
      at(
        doc,
        'RUN_ROOT',
        'resumable/run-name-mismatch',
        `RUN_ROOT ends with "${rootBase}", not TASK_NAME-RUN_ID "${expected}"`,
      ),
    );
  if (!named(root.name) && root.name !== rootBase)
    out.push(
      at(
        doc,
        'RUN_ID',
        'resumable/run-name-mismatch',
        `the run-root folder is "${root.name}", not ${expected !== undefined ? `TASK_NAME-RUN_ID "${expected}"` : `<task>-${runId}`} (a copy or a renamed folder?)`,
      ),
    );
  return out;
}

function pathRules(root: RunRoot, doc: CheckedDocument, s: EnvValues): Finding[] {
  const out: Finding[] = [];
  const base = s.RUN_ROOT?.trim() ? trimSlash(s.RUN_ROOT) : undefined;
  if (base === undefined) return out;
  const art = s.ARTIFACT_ROOT === undefined ? undefined : trimSlash(s.ARTIFACT_ROOT);
  const artOk =
    art === `${base}/artifacts` || art === 'artifacts' || /^\$\{?RUN_ROOT\}?\/artifacts$/.test(art ?? '');
  if (art !== undefined && !artOk)
    out.push(at(doc, 'ARTIFACT_ROOT', 'resumable/path-mismatch', `ARTIFACT_ROOT is not ${base}/artifacts`));
  if (s.LOCK_FILE !== undefined && declaredLockPath(root.dir, s) === undefined)
    out.push(at(doc, 'LOCK_FILE', 'resumable/path-mismatch', `LOCK_FILE is not inside ${base}`));
  return out;
}

function pointerRules(doc: CheckedDocument, s: EnvValues): Finding[] {
  const raw = s.CURRENT_STAGE?.trim();
  if (raw === undefined || raw === '')
    return [
      at(
        doc,
        raw === undefined ? undefined : 'CURRENT_STAGE',
        'resumable/current-stage-missing',
        'CURRENT_STAGE is not set: resume follows the done flags',
      ),
    ];
  const stages = stagesOf(s, {});
  const terminal = isTerminalStage(raw);
  const cur = isStageName(raw.toUpperCase()) ? raw.toUpperCase() : raw;
  if (!terminal && !stages.includes(cur))
    return [
      at(
        doc,
        'CURRENT_STAGE',
        'resumable/unknown-current-stage',
        `CURRENT_STAGE="${raw}" but there is no ${cur}_DONE flag`,
      ),
    ];
  // Only an explicit 0 counts here: a flag that is neither 0 nor 1 is already a schema finding.
  const behind = stages.filter((st) => (terminal || compareStages(st, cur) < 0) && s[`${st}_DONE`] === '0');
  if (behind.length === 0) return [];
  return [
    at(
      doc,
      'CURRENT_STAGE',
      'resumable/current-stage-ahead',
      `CURRENT_STAGE="${raw}" but ${behind.join(', ')} ${behind.length > 1 ? 'are' : 'is'} not done`,
    ),
  ];
}

function stateRules(root: RunRoot, doc: CheckedDocument, s: EnvValues): Finding[] {
  return [
    ...versionRule(doc, s, 'STATE_SCHEMA_VERSION'),
    ...identityRules(root, doc, s),
    ...pathRules(root, doc, s),
    ...pointerRules(doc, s),
    ...contractRules(doc, s, valuesOf(root.contract)),
  ];
}

function gateRules(root: RunRoot, doc: CheckedDocument, s: EnvValues, c: EnvValues): Finding[] {
  const out: Finding[] = [];
  const stages = stagesOf(s, c);
  for (const st of stages) {
    if (!stageDone(st, s)) continue;
    const flag = checklistDoneFlag(st, s, c);
    const items = checksOf(st, c);
    const open = items.filter((i) => !i.done);
    if (items.length === 0 && flag !== '0' && flag !== '1')
      out.push(
        at(
          doc,
          `${st}_DONE`,
          'resumable/stage-done-unchecked',
          `${st}_DONE=1 but the checklist has no CB_${st}_* keys (and no ${st}_CHECKLIST_DONE=1)`,
        ),
      );
    if (open.length > 0 || flag === '0') {
      const what =
        open.length > 0
          ? `${open.map((i) => `${i.key}=${i.value ?? '(missing)'}`).join(', ')}`
          : `${st}_CHECKLIST_DONE=0`;
      out.push(
        at(
          doc,
          `${st}_DONE`,
          'resumable/stage-done-checklist-incomplete',
          `${st}_DONE=1 but ${what}`,
          'a stage is done only when all its checklist keys are 1',
        ),
      );
    }
    const art = missingArtifacts(st, s, c, root.artifacts, root.contract !== undefined);
    if (art.missing.length > 0)
      out.push(
        at(
          doc,
          `${st}_DONE`,
          'resumable/missing-artifact',
          art.rule === 'declared'
            ? `${st} is done but its declared artifact${art.missing.length > 1 ? 's' : ''} artifacts/${art.missing.join(', artifacts/')} ${art.missing.length > 1 ? 'are' : 'is'} missing`
            : `${st} is done but no artifacts/${st}-* file exists (the convention of runs made by ckpt resumable init)`,
        ),
      );
  }
  if (pushRecordedUnconfirmed(stages, s, c)) {
    for (const f of FINALIZATION_FLAGS)
      if (s[f] === '1')
        out.push(at(doc, f, 'resumable/finalized-before-push', `${f}=1 before the push is confirmed`));
  }
  return out;
}
