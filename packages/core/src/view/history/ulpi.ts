import { applyUlpiTransition, type UlpiTransition } from '../../dialects/ulpi/event-log.js';
import { isObject, own, str, unitDeps } from '../../dialects/ulpi/model.js';
import { ulpiItemText } from '../../dialects/ulpi/view-plan.js';
import { parseJson } from '../../parse/json.js';
import { escapePointerToken } from '../../parse/json-scanner.js';
import { valueText } from '../../text/value-text.js';
import type { RunView } from '../run-view.js';
import { entry, findingEntry, type HistoryEntry, type ReadSource } from './entry.js';

type Doc = Record<string, unknown>;
type Add = (e: HistoryEntry) => void;

const clone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));
const statusOf = (u: unknown) => str(u, 'status');

/** What changed in one unit between two versions, as entries at the log line that changed it. */
function unitChange(
  id: string,
  b: unknown,
  a: unknown,
  at: string | undefined,
  loc: [string, number],
  add: Add,
) {
  const [file, line] = loc;
  const when = str(a, 'updatedAt') ?? at;
  if (b === undefined && a !== undefined) {
    const deps = unitDeps(a);
    add(
      entry(
        'created',
        str(a, 'createdAt') ?? when,
        [id],
        `unit added (${statusOf(a) ?? '?'})${deps.length ? `, depends on ${deps.join(', ')}` : ''}`,
        file,
        line,
      ),
    );
    return;
  }
  if (a === undefined) {
    add(entry('updated', at, [id], 'unit removed', file, line));
    return;
  }
  const was = statusOf(b);
  const now = statusOf(a);
  const note = str(a, 'note');
  if (was !== now) {
    const again = was === 'done' || was === 'blocked' || was === 'dep_blocked';
    const text = `${was ?? '?'} → ${now ?? '?'}${note && note !== str(b, 'note') ? `: ${note}` : ''}`;
    const kind =
      now === 'in_progress'
        ? again
          ? 'retried'
          : 'started'
        : now === 'done'
          ? 'finished'
          : now === 'blocked' || now === 'dep_blocked'
            ? 'blocked'
            : now === 'pending'
              ? 'retried'
              : 'updated';
    add(entry(kind, now === 'done' ? (str(a, 'finishedAt') ?? when) : when, [id], text, file, line));
  } else if (note !== str(b, 'note') && note) add(entry('updated', when, [id], `note: ${note}`, file, line));
  const d0 = unitDeps(b).join(', ');
  const d1 = unitDeps(a).join(', ');
  if (d0 !== d1) add(entry('updated', when, [id], `depends on ${d1 || 'nothing'}`, file, line));
}

function itemsChange(
  key: 'openItems' | 'resolvedItems',
  b: unknown,
  a: unknown,
  loc: [string, number],
  add: Add,
) {
  const before = new Set((Array.isArray(b) ? b : []).map((x) => JSON.stringify(x)));
  for (const it of Array.isArray(a) ? a : []) {
    if (before.has(JSON.stringify(it))) continue;
    const unit = str(it, 'unit');
    const at = key === 'openItems' ? str(it, 'at') : (str(it, 'resolvedAt') ?? str(it, 'at'));
    const verb = key === 'openItems' ? 'open item' : 'resolved';
    add(
      entry(
        key === 'openItems' ? 'finding' : 'resolved',
        at,
        unit ? [unit] : [],
        `${verb} ${ulpiItemText(it)}`,
        ...loc,
      ),
    );
  }
}

function phaseChange(id: string, b: unknown, a: unknown, loc: [string, number], add: Add) {
  const was = statusOf(b);
  const now = statusOf(a);
  if (was === now) return;
  const at = now === 'running' ? str(a, 'startedAt') : (str(a, 'finishedAt') ?? str(a, 'updatedAt'));
  add(entry('phase', at ?? str(a, 'updatedAt'), [], `phase ${id}: ${was ?? 'new'} → ${now ?? '?'}`, ...loc));
}

/** Every transition of the event log, replayed line by line; stops quietly where the log is broken. */
function fromLog(text: string, file: string, add: Add) {
  let doc: Doc | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (!raw) continue;
    let l: unknown;
    try {
      l = JSON.parse(raw);
    } catch {
      continue;
    }
    if (!isObject(l)) continue;
    const loc: [string, number] = [file, i + 1];
    if (l.op === 'init' && isObject(l.doc)) {
      doc = clone(l.doc);
      const units = own(doc, 'units');
      add(
        entry(
          'created',
          str(doc, 'createdAt'),
          [],
          `run initialised${str(doc, 'task') ? `: ${str(doc, 'task')}` : ''} (${isObject(units) ? Object.keys(units).length : 0} units)`,
          ...loc,
        ),
      );
      if (isObject(units))
        for (const [id, u] of Object.entries(units))
          unitChange(id, undefined, u, str(doc, 'createdAt'), loc, add);
      continue;
    }
    // A path the replay rejects (a key that is not a string) changes nothing: skipped before it is read from.
    if (!doc || !Array.isArray(l.path) || !l.path.every((k) => typeof k === 'string')) continue;
    const [top, key] = l.path as string[];
    const section = top === 'units' || top === 'phases' ? top : undefined;
    const before = clone(section ? (key ? own(own(doc, section), key) : own(doc, section)) : own(doc, top!));
    if (applyUlpiTransition(doc, l as unknown as UlpiTransition) !== undefined) continue;
    const after = section ? (key ? own(own(doc, section), key) : own(doc, section)) : own(doc, top!);
    const at = str(doc, 'updatedAt');
    if (section) {
      const pairs: [string, unknown, unknown][] = key
        ? [[key, before, after]]
        : [
            ...new Set([
              ...Object.keys(isObject(before) ? before : {}),
              ...Object.keys(isObject(after) ? after : {}),
            ]),
          ].map((k) => [k, own(before, k), own(after, k)]);
      for (const [id, b, a] of pairs)
        if (JSON.stringify(b) !== JSON.stringify(a))
          section === 'units' ? unitChange(id, b, a, at, loc, add) : phaseChange(id, b, a, loc, add);
    } else if (top === 'openItems' || top === 'resolvedItems') itemsChange(top, before, after, loc, add);
    else if (top === 'status' && before !== after)
      add(
        entry(
          after === 'done' ? 'finished' : 'updated',
          str(doc, 'finishedAt') ?? at,
          [],
          `run ${valueText(before)} → ${valueText(after)}`,
          ...loc,
        ),
      );
    else if (top === 'finalValidation' && isObject(after))
      add(
        entry(
          'decision',
          str(after, 'at') ?? at,
          [],
          `final validation ${valueText(after.status)}${str(after, 'note') ? `: ${str(after, 'note')}` : ''}`,
          ...loc,
        ),
      );
  }
}

/** The recorded timestamps of a snapshot, each at its own line (a run written without an event log). */
function fromSnapshot(text: string, file: string, add: Add) {
  const p = parseJson(text, file);
  if (!p.ok || !isObject(p.value)) return;
  const doc = p.value;
  const at = (ptr: string) => [file, p.sourceMap.locate(ptr).line] as [string, number];
  const stamp = (v: unknown, k: string) => str(v, k);
  if (stamp(doc, 'createdAt'))
    add(
      entry(
        'created',
        stamp(doc, 'createdAt'),
        [],
        `run created${str(doc, 'task') ? `: ${str(doc, 'task')}` : ''}`,
        ...at('/createdAt'),
      ),
    );
  const units = own(doc, 'units');
  for (const [id, u] of isObject(units) ? Object.entries(units) : []) {
    const base = `/units/${escapePointerToken(id)}`;
    const status = statusOf(u);
    const note = str(u, 'note');
    if (stamp(u, 'createdAt'))
      add(entry('created', stamp(u, 'createdAt'), [id], 'unit added', ...at(`${base}/createdAt`)));
    if (stamp(u, 'startedAt'))
      add(entry('started', stamp(u, 'startedAt'), [id], 'first in_progress', ...at(`${base}/startedAt`)));
    if (stamp(u, 'finishedAt')) {
      const kind =
        status === 'done'
          ? 'finished'
          : status === 'blocked' || status === 'dep_blocked'
            ? 'blocked'
            : 'updated';
      add(
        entry(
          kind,
          stamp(u, 'finishedAt'),
          [id],
          `${status ?? '?'}${note ? `: ${note}` : ''}`,
          ...at(`${base}/finishedAt`),
        ),
      );
    } else if (stamp(u, 'updatedAt') && stamp(u, 'updatedAt') !== stamp(u, 'createdAt'))
      add(
        entry(
          status === 'blocked' || status === 'dep_blocked' ? 'blocked' : 'updated',
          stamp(u, 'updatedAt'),
          [id],
          `last update: ${status ?? '?'}${note ? `: ${note}` : ''}`,
          ...at(`${base}/updatedAt`),
        ),
      );
  }
  const phases = own(doc, 'phases');
  for (const [id, ph] of isObject(phases) ? Object.entries(phases) : []) {
    const base = `/phases/${escapePointerToken(id)}`;
    if (stamp(ph, 'startedAt'))
      add(entry('phase', stamp(ph, 'startedAt'), [], `phase ${id} started`, ...at(`${base}/startedAt`)));
    if (stamp(ph, 'finishedAt'))
      add(
        entry(
          'phase',
          stamp(ph, 'finishedAt'),
          [],
          `phase ${id} ${statusOf(ph) ?? '?'}`,
          ...at(`${base}/finishedAt`),
        ),
      );
  }
  for (const key of ['openItems', 'resolvedItems'] as const) {
    const items = own(doc, key);
    (Array.isArray(items) ? items : []).forEach((it, i) => {
      const unit = str(it, 'unit');
      const when = key === 'openItems' ? str(it, 'at') : (str(it, 'resolvedAt') ?? str(it, 'at'));
      add(
        entry(
          key === 'openItems' ? 'finding' : 'resolved',
          when,
          unit ? [unit] : [],
          `${key === 'openItems' ? 'open item' : 'resolved'} ${ulpiItemText(it)}`,
          ...at(`/${key}/${i}`),
        ),
      );
    });
  }
  const fv = own(doc, 'finalValidation');
  if (isObject(fv))
    add(
      entry(
        'decision',
        str(fv, 'at'),
        [],
        `final validation ${valueText(fv.status)}`,
        ...at('/finalValidation'),
      ),
    );
  if (stamp(doc, 'finishedAt'))
    add(
      entry(
        'finished',
        stamp(doc, 'finishedAt'),
        [],
        `run ${str(doc, 'status') ?? '?'}`,
        ...at('/finishedAt'),
      ),
    );
}

/**
 * A ulpi run's history: from the event log when there is one (every transition at its line), else from the
 * timestamps the snapshot keeps; plus the findings of its files (the register's open items come from the file).
 */
export function ulpiHistory(run: RunView, read: ReadSource): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  const add: Add = (e) => out.push(e);
  const snap = run.sources.find((x) => x.kind?.startsWith('ulpi/status'))?.path ?? run.sources[0]?.path;
  const log = run.sources.find((x) => x.kind === 'ulpi/event-log-line')?.path;
  const logText = log ? read(log) : undefined;
  if (log && logText !== undefined) fromLog(logText, log, add);
  if (out.length === 0 && snap) {
    const text = read(snap);
    if (text !== undefined) fromSnapshot(text, snap, add);
  }
  const unitIds = new Set(run.units.map((u) => u.id));
  for (const f of run.findings) {
    if (f.code === 'ulpi/open-item') continue;
    const m = /^\/units\/([^/]+)/.exec(f.pointer ?? '');
    const id = m ? m[1]!.replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
    out.push(findingEntry(f, id && unitIds.has(id) ? [id] : []));
  }
  return out;
}
