import { resolve as resolvePath } from 'node:path';
import {
  addUlpiItems,
  assertUlpiUnitsReadable,
  escapeTerminal,
  finalizeUlpiRun,
  gcUlpiRuns,
  initUlpiRun,
  migrateUlpiFile,
  ReadRefusedError,
  readRegularFileUtf8,
  readUlpiValue,
  rebuildUlpiSnapshot,
  reconcileUlpiFromGit,
  recordUlpiValidation,
  redactSecretsIn,
  replayUlpiEventLog,
  resolveUlpiItems,
  setUlpiPhase,
  setUlpiUnit,
  stringifyJson,
  type UlpiWriteOptions,
  ulpiEventLogPathFor,
  ulpiResumeSet,
  ulpiSummary,
  ulpiUsage,
} from '@ckpt/core';
import { printText } from '../../output/print.js';

const out = (s: string): void => printText(`${s}\n`);
// JSON.stringify's bytes (as the original prints), with DEL, C1 and bidi controls as \u escapes (same value).
const json2 = (v: unknown) => out(stringifyJson(v));
/** What a query prints of a file: secret-looking values redacted unless `--show-secrets` (a ckpt addition). */
const shown = (v: unknown, showSecrets: boolean) => (showSecrets ? v : redactSecretsIn(v));

/**
 * The clock of every stamp a verb writes: now, or CKPT_NOW (an ISO time) when set, so tests can compare whole
 * documents with the original's (the differential suite freezes both tools at one instant).
 */
function writeOptions(): UlpiWriteOptions {
  const fixed = process.env.CKPT_NOW ? Date.parse(process.env.CKPT_NOW) : Number.NaN;
  return Number.isFinite(fixed) ? { now: () => fixed } : {};
}

function parseJsonFlag(flag: string, raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch (e) {
    throw ulpiUsage(`${flag} is not valid JSON: ${(e as Error).message}`);
  }
}

export function runInit(
  file: string,
  o: {
    task: string;
    units: string[];
    id?: string;
    launch?: string;
    requiredPhases: string[];
    requireValidation?: boolean;
    eventLog?: boolean;
  },
): void {
  const launch = o.launch !== undefined ? parseJsonFlag('--launch', o.launch) : undefined;
  out(
    initUlpiRun(
      file,
      {
        task: o.task,
        units: o.units,
        requiredPhases: o.requiredPhases,
        ...(o.id !== undefined ? { id: o.id } : {}),
        ...(launch !== undefined ? { launch } : {}),
        ...(o.requireValidation ? { requireValidation: true } : {}),
        ...(o.eventLog ? { eventLog: true } : {}),
      },
      writeOptions(),
    ),
  );
}

export function runUnit(
  file: string,
  unit: string,
  status: string,
  o: { note?: string; deps?: string[] },
): void {
  setUlpiUnit(file, unit, status, o, writeOptions());
}

export function runPhase(file: string, phase: string, status: string): void {
  setUlpiPhase(file, phase, status, writeOptions());
}

/** Reads what `get` and `resume` read: any JSON value; `null` is an error where the original crashes on it. */
function readForQuery(file: string, units: boolean, deps = false): unknown {
  const value = readUlpiValue(file);
  if (value === null && units) throw ulpiUsage(`${file} holds null, not a status document (a JSON object)`);
  if (units) assertUlpiUnitsReadable(file, value, { deps });
  return value;
}

export function runGet(file: string, summary: boolean, showSecrets = false): void {
  const doc = readForQuery(file, summary);
  json2(shown(summary ? ulpiSummary(doc as Record<string, unknown>) : doc, showSecrets));
}

export function runResume(file: string, showSecrets = false): void {
  json2(shown(ulpiResumeSet(readForQuery(file, true, true)), showSecrets));
}

export function runItem(file: string, raw: string): void {
  const ids = addUlpiItems(file, parseJsonFlag('item --json', raw), writeOptions());
  if (ids.length > 0) out(JSON.stringify(ids));
}

export function runResolve(file: string, ids: string[] | undefined, raw: string | undefined): void {
  let list: readonly unknown[] | undefined = ids;
  if (list === undefined) {
    if (raw === undefined) throw ulpiUsage('resolve requires --ids "id1,id2" (or --json \'["id1",...]\')');
    const parsed = parseJsonFlag('resolve --json', raw);
    list = Array.isArray(parsed) ? parsed : [parsed];
  }
  out(JSON.stringify(resolveUlpiItems(file, list, writeOptions())));
}

export function runValidation(file: string, status: string, note: string | undefined): void {
  recordUlpiValidation(file, status, note !== undefined ? { note } : {}, writeOptions());
}

export function runFinalize(file: string, status: string, result: string | undefined): void {
  finalizeUlpiRun(file, status, result !== undefined ? { result } : {}, writeOptions());
}

/** `gc`; exit 1 when a file was left in place because the original crashes on it (`null`, see gcUlpiRuns). */
export function runGc(dir: string, keepDays: number): number {
  const r = gcUlpiRuns(dir, { keepDays });
  if (r.reason) out(`${r.archived} archived (${r.reason})`);
  else out(`${r.archived} archived to ${r.dir}/archive (terminal runs older than ${keepDays}d)`);
  for (const s of r.skipped)
    process.stderr.write(
      `ckpt: ${escapeTerminal(`${s.file} ${s.why}`)} — left in place (fix or delete it)\n`,
    );
  return r.skipped.length > 0 ? 1 : 0;
}

const snapshotOf = (file: string) =>
  file.endsWith('.events.jsonl') ? `${file.slice(0, -'.events.jsonl'.length)}.json` : file;

export function runReplay(file: string): void {
  const log = ulpiEventLogPathFor(snapshotOf(file));
  let text: string;
  try {
    text = readRegularFileUtf8(log);
  } catch (e) {
    const why = e instanceof ReadRefusedError ? e.reason : ((e as NodeJS.ErrnoException).code ?? String(e));
    throw ulpiUsage(`cannot read ${log}: ${why}`);
  }
  const r = replayUlpiEventLog(text);
  if (!r.ok) throw ulpiUsage(`event log ${log} fails closed: ${r.error.message}`);
  if (r.tornTail !== undefined)
    process.stderr.write(`ckpt: discarded a torn final fragment of ${r.tornTail.length} bytes\n`);
  json2(r.doc);
}

export function runRebuild(file: string, force = false): void {
  const snap = snapshotOf(file);
  rebuildUlpiSnapshot(snap, { force });
  process.stderr.write(`rebuilt ${escapeTerminal(snap)} from ${escapeTerminal(ulpiEventLogPathFor(snap))}\n`);
}

export function runReconcile(
  file: string,
  o: { git?: boolean; ref?: string; repo?: string; json?: boolean },
): void {
  if (!o.git) throw ulpiUsage('reconcile requires --git (the only source of integration evidence so far)');
  const r = reconcileUlpiFromGit(file, {
    repoDir: resolvePath(o.repo ?? process.cwd()),
    ...(o.ref !== undefined ? { ref: o.ref } : {}),
  });
  if (o.json) {
    json2(r);
    return;
  }
  out(
    `${r.integrated.length} unit(s) integrated on ${r.ref}; ${r.reconciled.length} reconciled to done${r.reconciled.length ? ` (${r.reconciled.join(', ')})` : ''}; ${r.staleDone.length} stale done${r.staleDone.length ? ` (${r.staleDone.join(', ')}: blocker items added)` : ''}`,
  );
}

export function runMigrate(file: string, write: boolean, asJson: boolean, showSecrets = false): void {
  const m = migrateUlpiFile(file, { write });
  if (asJson) {
    json2({
      file: m.file,
      fromVersion: m.fromVersion,
      changed: m.changed,
      changes: m.changes,
      written: m.written,
    });
    return;
  }
  if (!m.changed) {
    process.stderr.write(`${escapeTerminal(file)} is already schemaVersion 2: nothing to upgrade\n`);
    return;
  }
  if (write) process.stderr.write(`upgraded ${escapeTerminal(file)} add-only (${m.changes.join(', ')})\n`);
  else {
    process.stderr.write(
      `would upgrade ${escapeTerminal(file)} add-only (${m.changes.join(', ')}); run with --write to apply. The upgraded document:\n`,
    );
    // The preview shows the file's contents: secret-looking values are masked there (the file is written as is).
    const doc: unknown = JSON.parse(m.text);
    const masked = showSecrets ? doc : redactSecretsIn(doc);
    process.stdout.write(masked === doc ? m.text : `${stringifyJson(masked)}\n`);
  }
}
