import type { Finding } from '../../findings/finding.js';
import type { RunRoot } from './load.js';
import { describeHolder, LOCK_FIELD_KEYS, lockKeyOf } from './lock.js';
import { at, inFile } from './rule-helpers.js';
import { summaryLines } from './run-log.js';
import type { EnvValues } from './stages.js';

const LOCK_METADATA = [
  ['pid', 'pid'],
  ['host', 'host'],
  ['user', 'user'],
  ['acquiredAt', 'timestamp'],
] as const;

/** The skill's lock metadata (pid, host, user, timestamp) that a parsed lock lacks under every spelling. */
function incompleteLock(root: RunRoot): Finding[] {
  if (!root.lock?.usable || root.lock.value === undefined) return [];
  const values = root.lock.value as EnvValues;
  const missing = LOCK_METADATA.filter(([field]) => lockKeyOf(values, field) === undefined).map(
    ([field, label]) =>
      field === 'acquiredAt' ? `${label} (${LOCK_FIELD_KEYS.acquiredAt.join(', ')})` : label,
  );
  if (missing.length === 0) return [];
  return [at(root.lock, undefined, 'resumable/lock-incomplete', `the lock has no ${missing.join(', ')}`)];
}

/** The lock: incomplete metadata, active (stop), stale (holder reported), naming another run. */
export function lockRules(root: RunRoot, s: EnvValues | undefined): Finding[] {
  const ls = root.lockState;
  const out = incompleteLock(root);
  if (!root.lock || ls.state === 'none' || ls.state === 'unreadable') return out;
  if (ls.state === 'active')
    out.push(
      at(
        root.lock,
        'pid',
        'resumable/lock-active',
        `locked by live process ${describeHolder(ls.holder)}: writers stop`,
      ),
    );
  if (ls.state === 'stale')
    out.push(
      at(root.lock, 'pid', 'resumable/lock-stale', `stale lock: ${describeHolder(ls.holder)} is not running`),
    );
  const runId = s?.RUN_ID?.trim();
  const lockRun = ls.holder.runId.trim();
  // The lock may name the run by its id or by its run-root name (<task>-<run-id>).
  const sameRun = lockRun === runId || lockRun.endsWith(`-${runId}`) || lockRun === root.name;
  if (runId && lockRun !== '' && !sameRun)
    out.push(
      at(
        root.lock,
        lockKeyOf(root.lock.value as EnvValues, 'runId') ?? 'run_id',
        'resumable/run-identity-mismatch',
        `the lock names run ${ls.holder.runId} but RUN_ID is ${runId}`,
      ),
    );
  return out;
}

/** run.log: malformed lines and summary blocks appended twice. */
export function logRules(root: RunRoot, s: EnvValues | undefined): Finding[] {
  if (!root.log) return [];
  const out: Finding[] = [];
  for (const l of root.log.lines)
    if (!l.wellFormed && l.message.trim() !== '')
      out.push(
        inFile(
          root.log.file,
          l.line,
          'resumable/malformed-log-line',
          `line ${l.line} does not start with a time ("[<UTC ISO time>] <message>")`,
        ),
      );
  const ids = new Set(root.log.lines.flatMap((l) => (l.summaryRunId ? [l.summaryRunId] : [])));
  if (s?.RUN_ID) ids.add(s.RUN_ID);
  for (const id of ids) {
    for (const dup of summaryLines(root.log.lines, id).slice(1))
      out.push(
        inFile(
          root.log.file,
          dup.line,
          'resumable/duplicate-summary',
          `second summary block for RUN_ID=${id}`,
        ),
      );
  }
  return out;
}
