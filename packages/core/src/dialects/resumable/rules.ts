import { basename } from 'node:path';
import type { Finding } from '../../findings/finding.js';
import type { CheckedDocument } from '../dialect.js';
import { type RunRoot, valuesOf } from './load.js';
import { at, inFile, SUPPORTED_SCHEMA_VERSION } from './rule-helpers.js';

export { SUPPORTED_SCHEMA_VERSION };

import { missingArtifacts } from './artifacts.js';
import { contractRules } from './rules-contract.js';
import { lockRules, logRules } from './rules-lock-log.js';
import {
  checklistComplete,
  checklistDoneFlag,
  checksOf,
  compareStages,
  type EnvValues,
  FINALIZATION_FLAGS,
  isStageName,
  pushProgress,
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

function versionRule(doc: CheckedDocument, values: EnvValues, key: string): Finding[] {
  const v = values[key];
  if (v === undefined || !/^[0-9]+$/.test(v) || v === SUPPORTED_SCHEMA_VERSION) return [];
  return [
    at(
      doc,
      key,
      'resumable/unsupported-schema-version',
      `${key}="${v}": ckpt reads version ${SUPPORTED_SCHEMA_VERSION}`,
    ),
  ];
}

function stateRules(root: RunRoot, doc: CheckedDocument, s: EnvValues): Finding[] {
  const out = versionRule(doc, s, 'STATE_SCHEMA_VERSION');
  // Any RUN_ID is compared with the folder: scripts may use another id style than `date -u +%Y%m%dT%H%M%SZ`.
  const runId = s.RUN_ID !== undefined && s.RUN_ID !== '' ? s.RUN_ID : undefined;
  const expected = s.TASK_NAME !== undefined && runId !== undefined ? `${s.TASK_NAME}-${runId}` : undefined;
  if (expected !== undefined && expected !== root.name)
    out.push(
      at(
        doc,
        'RUN_ID',
        'resumable/run-identity-mismatch',
        `TASK_NAME-RUN_ID is "${expected}" but the run-root folder is "${root.name}"`,
      ),
    );
  if (runId !== undefined && s.RUN_ROOT !== undefined && basename(s.RUN_ROOT) !== root.name)
    out.push(
      at(
        doc,
        'RUN_ROOT',
        'resumable/run-identity-mismatch',
        `RUN_ROOT "${s.RUN_ROOT}" does not end with the folder name "${root.name}"`,
      ),
    );
  const base = s.RUN_ROOT?.replace(/\/+$/, '');
  if (
    base !== undefined &&
    s.ARTIFACT_ROOT !== undefined &&
    s.ARTIFACT_ROOT.replace(/\/+$/, '') !== `${base}/artifacts`
  )
    out.push(at(doc, 'ARTIFACT_ROOT', 'resumable/path-mismatch', `ARTIFACT_ROOT is not ${base}/artifacts`));
  if (base !== undefined && s.LOCK_FILE !== undefined && s.LOCK_FILE !== `${base}/run.lock`)
    out.push(at(doc, 'LOCK_FILE', 'resumable/path-mismatch', `LOCK_FILE is not ${base}/run.lock`));
  const stages = stagesOf(s, {});
  const cur = s.CURRENT_STAGE;
  if (cur !== undefined && isStageName(cur) && !stages.includes(cur))
    out.push(
      at(
        doc,
        'CURRENT_STAGE',
        'resumable/unknown-current-stage',
        `CURRENT_STAGE="${cur}" but there is no ${cur}_DONE flag`,
      ),
    );
  if (cur === 'DONE' || (cur !== undefined && stages.includes(cur))) {
    // Only an explicit 0 counts here: a flag that is neither 0 nor 1 is already a schema finding.
    const behind = stages.filter(
      (st) => (cur === 'DONE' || compareStages(st, cur) < 0) && s[`${st}_DONE`] === '0',
    );
    if (behind.length > 0)
      out.push(
        at(
          doc,
          'CURRENT_STAGE',
          'resumable/current-stage-ahead',
          `CURRENT_STAGE="${cur}" but ${behind.join(', ')} ${behind.length > 1 ? 'are' : 'is'} not done`,
        ),
      );
  }
  out.push(...contractRules(doc, s, valuesOf(root.contract)));
  return out;
}

function gateRules(root: RunRoot, doc: CheckedDocument, s: EnvValues, c: EnvValues): Finding[] {
  const out: Finding[] = [];
  const stages = stagesOf(s, c);
  for (const st of stages) {
    if (!stageDone(st, s)) continue;
    const flag = checklistDoneFlag(st, s, c);
    if (!checklistComplete(st, c) || flag === '0') {
      const open = checksOf(st, c).filter((i) => !i.done);
      const what =
        open.length > 0
          ? `${open.map((i) => `${i.key}=${i.value ?? '(missing)'}`).join(', ')}`
          : flag === '0'
            ? `${st}_CHECKLIST_DONE=0`
            : `the checklist has no CB_${st}_* keys`;
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
  const push = pushProgress(stages, s, c);
  if (!push.confirmed) {
    for (const f of FINALIZATION_FLAGS)
      if (s[f] === '1')
        out.push(at(doc, f, 'resumable/finalized-before-push', `${f}=1 before the push is confirmed`));
  }
  return out;
}
