import { dirname } from 'node:path';
import { nodeFileSystem } from '../../fs/file-system.js';
import { refuseUlpiSecret, ulpiRefusal, ulpiUsage } from './errors.js';
import { eventLogPathFor, initializeUlpiEventLog } from './event-log-io.js';
import { resolveUlpiItems, upsertUlpiItems } from './items.js';
import { withUlpiLock } from './lock.js';
import {
  isObject,
  isoStamp,
  LIVE_STATES,
  own,
  PHASE_STATES,
  pointer,
  setOwn,
  type UlpiDoc,
  UNIT_STATES,
} from './model.js';
import {
  describeJson,
  mutateUlpiDoc,
  readUlpiValue,
  ULPI_SCHEMA_VERSION,
  type UlpiWriteOptions,
  writeUlpiDoc,
} from './store.js';

const FORBIDDEN = ['__proto__', 'prototype', 'constructor'];

export interface UlpiInitOptions {
  readonly task: string;
  readonly id?: string;
  readonly units?: readonly string[];
  readonly requiredPhases?: readonly string[];
  readonly requireValidation?: boolean;
  /** The typed launch descriptor, as parsed JSON (validated before anything touches the disk). */
  readonly launch?: unknown;
  /** Start the opt-in transition log `<id>.events.jsonl` beside the file. */
  readonly eventLog?: boolean;
}

function checkReserved(kind: string, id: string): void {
  if (FORBIDDEN.includes(id))
    throw ulpiUsage(`${kind} id '${id}' is reserved (it would change the object's prototype)`);
}

/** The original's words for a launch descriptor `init` refuses, or undefined for a valid one. */
function launchRefusal(launch: unknown): string | undefined {
  if (!isObject(launch))
    return `--launch must be a JSON object { scriptPath, args } — got ${Array.isArray(launch) ? 'an array' : typeof launch}`;
  const script = own(launch, 'scriptPath');
  if (typeof script !== 'string' || script.trim() === '')
    return '--launch.scriptPath must be a non-empty string (the relaunch recipe is unusable without it)';
  if (Object.hasOwn(launch, 'args') && !isObject(launch.args))
    return '--launch.args must be a JSON object when present';
  return undefined;
}

/**
 * `init`: writes a fresh v2 document in the original's key order. Refuses (exit 2) over a live checkpoint, and
 * (exit 1) on a missing task or an invalid launch before touching the disk, and on a unit id with whitespace.
 * Returns the run id (default `run-YYYY-MM-DD-HHMMSSZ`).
 */
export function initUlpiRun(file: string, o: UlpiInitOptions, opts: UlpiWriteOptions = {}): string {
  const fs = opts.fs ?? nodeFileSystem;
  if (!o.task) throw ulpiUsage('init requires a task description');
  const launchProblem = o.launch !== undefined ? launchRefusal(o.launch) : undefined;
  if (launchProblem) throw ulpiUsage(launchProblem);
  refuseUlpiSecret('--task', o.task);
  if (o.launch !== undefined) refuseUlpiSecret('--launch', o.launch);
  fs.mkdirSync(dirname(file), { recursive: true });
  return withUlpiLock(
    file,
    () => {
      if (fs.existsSync(file)) {
        const cur = readUlpiValue(file, fs);
        if (cur === null)
          throw ulpiUsage(`${file} holds null, not a status document: cannot tell whether it is live`);
        const status = own(cur, 'status');
        if (LIVE_STATES.includes(status as string))
          throw ulpiRefusal(
            `${file} is a LIVE checkpoint (status=${String(status)}). Resume it — do not re-init. (Delete the file only if you explicitly intend to discard the run.)`,
          );
      }
      if (fs.existsSync(eventLogPathFor(file)))
        throw ulpiRefusal(
          `${eventLogPathFor(file)} exists — archive or delete the old run's event log before re-initialising (ckpt would otherwise replay the old run over the new one)`,
        );
      const stamp = isoStamp(opts.now?.() ?? Date.now());
      const units: Record<string, unknown> = {};
      for (const u of o.units ?? []) {
        // A unit born with whitespace could never be updated (`unit` rejects it), so the run could never finish.
        if (/\s/.test(u))
          throw ulpiUsage(
            `unit id '${u}' contains whitespace — ids must be shell-safe tokens (the 'unit' command rejects them, so it could never be marked done)`,
          );
        checkReserved('unit', u);
        setOwn(units, u, { status: 'pending', dependsOn: [], note: '', createdAt: stamp, updatedAt: stamp });
      }
      const runId = o.id ?? `run-${stamp.replace(/[:.]/g, '').replace('T', '-')}`;
      const doc: UlpiDoc = {
        schemaVersion: ULPI_SCHEMA_VERSION,
        id: runId,
        task: o.task,
        status: 'running',
        createdAt: stamp,
        updatedAt: stamp,
        phases: {},
        units,
        openItems: [],
        resolvedItems: [],
        result: null,
        ...(o.requiredPhases?.length ? { requiredPhases: [...o.requiredPhases] } : {}),
        ...(o.requireValidation ? { requireValidation: true } : {}),
        ...(o.launch !== undefined ? { launch: o.launch } : {}),
      };
      if (o.eventLog) initializeUlpiEventLog(file, doc, { fs });
      else writeUlpiDoc(file, doc, fs);
      return runId;
    },
    { ...opts.lock, fs },
  );
}

/** `unit`: sets a unit's status (and note, deps); refuses (exit 2) to demote a done unit. */
export function setUlpiUnit(
  file: string,
  unitId: string,
  status: string,
  o: { note?: string; deps?: readonly string[] } = {},
  opts: UlpiWriteOptions = {},
): void {
  if (!unitId || !(UNIT_STATES as readonly string[]).includes(status))
    throw ulpiUsage(`unit requires <unit-id> <${UNIT_STATES.join('|')}>`);
  if (/[,\s]/.test(unitId))
    throw ulpiUsage(
      `unit id '${unitId}' contains commas/whitespace — inexpressible in --units and unsafe in shell one-liners`,
    );
  checkReserved('unit', unitId);
  if (o.note !== undefined) refuseUlpiSecret('--note', o.note);
  mutateUlpiDoc(
    file,
    (doc, stamp) => {
      if (doc.units === undefined || doc.units === null) doc.units = {};
      if (!isObject(doc.units))
        throw ulpiUsage(`${file}: units is ${describeJson(doc.units)}, not an object of units — fix /units`);
      let u = own(doc.units, unitId);
      if (u === undefined || u === null) {
        u = { status: 'pending', dependsOn: [], note: '', createdAt: stamp };
        setOwn(doc.units, unitId, u);
      }
      if (!isObject(u))
        throw ulpiUsage(
          `${file}: unit '${unitId}' is ${describeJson(u)}, not a unit object — fix ${pointer('units', unitId)}`,
        );
      if (u.status === 'done' && status !== 'done')
        throw ulpiRefusal(
          `unit '${unitId}' is already done — refusing to demote it (resume must skip done units)`,
        );
      u.status = status;
      if (o.note !== undefined) u.note = o.note;
      if (o.deps !== undefined) u.dependsOn = [...o.deps];
      if (status === 'in_progress' && !u.startedAt) u.startedAt = stamp;
      if (status === 'done' || status === 'blocked' || status === 'dep_blocked') u.finishedAt = stamp;
      u.updatedAt = stamp;
    },
    opts,
  );
}

/** `phase`: sets a phase's status; `running` also sets `currentPhase`. */
export function setUlpiPhase(file: string, name: string, status: string, opts: UlpiWriteOptions = {}): void {
  if (!name || !(PHASE_STATES as readonly string[]).includes(status))
    throw ulpiUsage(`phase requires <phase> <${PHASE_STATES.join('|')}>`);
  checkReserved('phase', name);
  mutateUlpiDoc(
    file,
    (doc, stamp) => {
      if (doc.phases === undefined || doc.phases === null) doc.phases = {};
      if (!isObject(doc.phases))
        throw ulpiUsage(
          `${file}: phases is ${describeJson(doc.phases)}, not an object of phases — fix /phases`,
        );
      // `{ ...(old || {}) }`, as the original spreads it: an array's items and a string's characters become keys.
      const ph: Record<string, unknown> = {};
      const old = own(doc.phases, name);
      for (const [k, v] of Object.entries(old || {})) setOwn(ph, k, v);
      ph.status = status;
      ph.updatedAt = stamp;
      if (status === 'running' && !ph.startedAt) ph.startedAt = stamp;
      if (status === 'done' || status === 'blocked' || status === 'skipped') ph.finishedAt = stamp;
      setOwn(doc.phases, name, ph);
      if (status === 'running') doc.currentPhase = name;
    },
    opts,
  );
}

function arrayField(doc: UlpiDoc, key: 'openItems' | 'resolvedItems', file: string): unknown[] {
  const v = doc[key];
  if (!Array.isArray(v)) throw ulpiUsage(`${file}: ${key} is ${describeJson(v)}, not an array — fix /${key}`);
  return v;
}

/** `item`: idempotent upsert of findings into `openItems` (stable ids); returns the ids of object items. */
export function addUlpiItems(file: string, input: unknown, opts: UlpiWriteOptions = {}): string[] {
  refuseUlpiSecret('item --json', input);
  return mutateUlpiDoc(
    file,
    (doc, stamp) => upsertUlpiItems(arrayField(doc, 'openItems', file), input, stamp),
    opts,
  );
}

/** `resolve`: moves open items by id to `resolvedItems` with `resolvedAt`; returns the ids moved. */
export function resolveUlpiItemsInFile(
  file: string,
  ids: readonly unknown[],
  opts: UlpiWriteOptions = {},
): unknown[] {
  return mutateUlpiDoc(
    file,
    (doc, stamp) =>
      resolveUlpiItems(
        arrayField(doc, 'openItems', file),
        arrayField(doc, 'resolvedItems', file),
        ids,
        stamp,
      ),
    opts,
  );
}

const VERDICTS: Record<string, 'green' | 'red'> = {
  green: 'green',
  pass: 'green',
  ok: 'green',
  red: 'red',
  fail: 'red',
};

/** `validation`: records the final validation verdict (`pass`/`ok` → green, `fail` → red). */
export function recordUlpiValidation(
  file: string,
  status: string,
  o: { note?: string } = {},
  opts: UlpiWriteOptions = {},
): void {
  const norm = Object.hasOwn(VERDICTS, status) ? VERDICTS[status] : undefined;
  if (!norm) throw ulpiUsage('validation requires <green|red> (aliases: pass/ok/fail)');
  if (o.note !== undefined) refuseUlpiSecret('--note', o.note);
  mutateUlpiDoc(
    file,
    (doc, stamp) => {
      doc.finalValidation = { status: norm, at: stamp, ...(o.note !== undefined ? { note: o.note } : {}) };
    },
    opts,
  );
}
