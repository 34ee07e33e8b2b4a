import type { Finding } from '../findings/finding.js';
import type { RunFacts, RunView } from '../view/run-view.js';
import {
  type Attention,
  type AttentionLevel,
  type AttentionReason,
  attentionReason,
  type ReasonSubject,
} from './reasons.js';
import { describeDuration, STALE_AFTER_MS } from './stale.js';

const RANK: Record<AttentionLevel, number> = { none: 0, info: 1, action: 2, blocked: 3 };

/** True when a level asks a person to do something (`action` or `blocked`): what `--exit-status` reports. */
export function needsPerson(a: Attention): boolean {
  return RANK[a.level] >= RANK.action;
}

const isVersion = (f: Finding) =>
  f.code === 'schema/unsupported-major' || f.code.endsWith('/unsupported-schema-version');
const isUnreadable = (f: Finding) =>
  f.severity === 'error' && (f.code.startsWith('io/') || f.code.startsWith('parse/'));
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const first = (items: readonly { id: string; reason: string }[]) =>
  items[0] ? ` (${items[0].id}: ${items[0].reason}${items.length > 1 ? ', …' : ''})` : '';

function findingReasons(run: RunFacts, s: ReasonSubject): AttentionReason[] {
  const out: AttentionReason[] = [];
  const version = run.findings.filter(isVersion);
  if (version.length > 0) out.push(attentionReason('version/unsupported', 'blocked', version[0]!.message, s));
  const unreadable = run.findings.filter(isUnreadable);
  if (unreadable.length > 0) {
    const files = [...new Set(unreadable.map((f) => f.file))];
    out.push(
      attentionReason(
        'files/unreadable',
        'action',
        `${plural(files.length, 'file')} cannot be read: ${files[0]}${files.length > 1 ? ', …' : ''}`,
        { ...s, file: files.length === 1 ? files[0]! : s.root },
      ),
    );
  }
  for (const f of run.findings.filter((x) => x.code === 'resumable/lock-stale').slice(0, 1))
    out.push(attentionReason('lock/dead-holder', 'action', f.message, { ...s, file: f.file }));
  const counted = (f: Finding) => !isVersion(f) && !isUnreadable(f) && f.code !== 'resumable/lock-stale';
  const errors = run.findings.filter((f) => f.severity === 'error' && counted(f)).length;
  const warnings = run.findings.filter((f) => f.severity === 'warning' && counted(f)).length;
  if (errors > 0) out.push(attentionReason('findings/errors', 'action', plural(errors, 'error finding'), s));
  if (warnings > 0)
    out.push(attentionReason('findings/warnings', 'info', plural(warnings, 'warning finding'), s));
  return out;
}

function stateReasons(run: RunFacts, s: ReasonSubject, now: number): AttentionReason[] {
  const out: AttentionReason[] = [];
  if (run.tone === 'error' || run.tone === 'warning')
    out.push(attentionReason('run/status', 'action', `the run is ${run.status}`, s));
  const last = Date.parse(run.updatedAt ?? run.createdAt ?? '');
  const limit = STALE_AFTER_MS[run.dialect];
  if (run.tone === 'active' && Number.isFinite(last) && now - last > limit)
    out.push(
      attentionReason(
        'run/stale',
        'action',
        `${run.status} with no update for ${describeDuration(now - last)} (stale after ${describeDuration(limit)} for ${run.dialect})`,
        s,
      ),
    );
  const marked = run.units.filter((u) => u.status === 'blocked');
  if (marked.length > 0)
    out.push(
      attentionReason(
        'units/blocked',
        'action',
        `${plural(marked.length, 'unit')} marked blocked (${marked[0]!.id}${marked[0]!.note ? `: ${marked[0]!.note}` : ''}${marked.length > 1 ? ', …' : ''})`,
        s,
      ),
    );
  const { needsPerson: np, blocked, runNext } = run.resume;
  if (np.length > 0)
    out.push(
      attentionReason(
        'resume/needs-person',
        'action',
        `${plural(np.length, 'item')} need a person${first(np)}`,
        s,
      ),
    );
  if (blocked.length > 0)
    out.push(
      attentionReason(
        'resume/blocked',
        runNext.length === 0 ? 'blocked' : 'info',
        `${plural(blocked.length, 'unit')} blocked${runNext.length === 0 ? ', nothing can run next' : ''}${first(blocked)}`,
        s,
      ),
    );
  return out;
}

/**
 * Whether a run needs a person, and why: from its findings (unsupported versions, unreadable files, a lock left
 * by a dead process, errors, warnings), its status, staleness (an active status with no update for longer than
 * `STALE_AFTER_MS` of its dialect, measured against `now`), and its resume plan (items that need a person,
 * blocked units). The one place this is decided.
 */
export function attentionOf(run: RunFacts, now: number): Attention {
  const s: ReasonSubject = { dialect: run.dialect, id: run.id, root: run.root };
  const reasons = [...findingReasons(run, s), ...stateReasons(run, s, now)].sort(
    (a, b) => RANK[b.level] - RANK[a.level],
  );
  const level = reasons.reduce<AttentionLevel>((m, r) => (RANK[r.level] > RANK[m] ? r.level : m), 'none');
  return { level, reasons };
}

/**
 * A run's facts with its attention: what `{ ...run, attention }` gives, but a member made when first read (a team
 * run's sources in a one-shot load) stays so in the copy, and is made once for both.
 */
export function withAttention(run: RunFacts, now: number): RunView {
  const view: Record<string, unknown> = {};
  for (const key of Object.keys(run)) {
    const d = Object.getOwnPropertyDescriptor(run, key)!;
    if (d.get) Object.defineProperty(view, key, { get: d.get, enumerable: true, configurable: true });
    else view[key] = d.value;
  }
  view.attention = attentionOf(run, now);
  return view as unknown as RunView;
}
