import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Finding, findingAt } from '../../findings/finding.js';
import type { CheckedDocument, TreeContext } from '../dialect.js';
import { ulpiCodes } from './codes.js';
import { hashUlpiDoc, replayUlpiEventLog, type UlpiReplay } from './event-log.js';
import { ulpiDivergence } from './event-log-io.js';

// A replay hashes the whole document after every line, so it is the costly part of a log; the check, the tree rule
// and the run view all ask for the same parsed log (TreeContext caches it), so replay it once per document.
const replays = new WeakMap<CheckedDocument, UlpiReplay>();
function replayOf(doc: CheckedDocument & { text: string }): UlpiReplay {
  let r = replays.get(doc);
  if (r === undefined) {
    r = replayUlpiEventLog(doc.text);
    replays.set(doc, r);
  }
  return r;
}

/** The replay rules of an event log: missing or repeated init, broken chain, a transition that cannot apply. */
export function checkUlpiEventLog(doc: CheckedDocument): Finding[] {
  if (doc.text === undefined) return [];
  const replay = replayOf(doc as CheckedDocument & { text: string });
  if (replay.ok && replay.tornTransaction !== undefined) {
    const { line, landed, of } = replay.tornTransaction;
    return [
      findingAt(
        doc.file,
        { line, column: 1 },
        {
          code: 'ulpi/event-log-torn-transaction',
          severity: ulpiCodes['ulpi/event-log-torn-transaction'].severity,
          message: `the last transaction has ${landed} of its ${of} lines: it did not land, and replay ignores it (the next write cuts it off)`,
        },
      ),
    ];
  }
  // A corrupt complete line is already a parse finding at that line; replay stopping there adds nothing.
  if (replay.ok || replay.error.code === 'parse/invalid-jsonl-line') return [];
  const { code, line, message } = replay.error;
  // A line the schema already rejects is explained there; the replay finding would repeat it.
  if (doc.findings.some((f) => f.line === line && f.severity === 'error')) return [];
  return [
    findingAt(
      doc.file,
      { line, column: 1 },
      { code, severity: ulpiCodes[code].severity, message: `${message}: replay fails closed` },
    ),
  ];
}

/**
 * How a snapshot stands against its log: in step, behind (an earlier state of the log), diverged (the same run
 * written without the log) or reinitialised (another run: id or createdAt differ from the log's).
 */
export type UlpiSnapshotState =
  | 'in-step'
  | 'behind'
  | 'diverged'
  | 'reinitialised'
  | 'log-fails'
  | 'unreadable';

export function ulpiSnapshotState(snapshot: CheckedDocument, log: CheckedDocument): UlpiSnapshotState {
  if (log.text === undefined) return 'log-fails';
  const replay = replayOf(log as CheckedDocument & { text: string });
  if (!replay.ok) return 'log-fails';
  if (!snapshot.usable || snapshot.value === undefined) return 'unreadable';
  const h = hashUlpiDoc(snapshot.value);
  if (h === replay.hash) return 'in-step';
  if (replay.hashes.includes(h)) return 'behind';
  return ulpiDivergence(snapshot.value, replay.doc) === 'reinitialised' ? 'reinitialised' : 'diverged';
}

/** A snapshot against its event log, for every `<id>.events.jsonl` of a runs directory. */
export function checkUlpiTree(root: string, ctx: TreeContext): Finding[] {
  const out: Finding[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return out;
  }
  for (const name of names.filter((n) => n.endsWith('.events.jsonl')).sort()) {
    const snapPath = join(root, `${name.slice(0, -'.events.jsonl'.length)}.json`);
    if (!existsSync(snapPath)) continue;
    const snap = ctx.document(snapPath);
    const state = ulpiSnapshotState(snap, ctx.document(join(root, name)));
    if (state === 'behind')
      out.push(
        findingAt(
          snap.file,
          { line: 1, column: 1 },
          {
            code: 'ulpi/snapshot-behind-log',
            severity: ulpiCodes['ulpi/snapshot-behind-log'].severity,
            message: `the snapshot is an earlier state of ${name}: the log wins, and the next append (or \`ckpt ulpi rebuild\`) rebuilds it`,
          },
        ),
      );
    else if (state === 'diverged' || state === 'reinitialised')
      out.push(
        findingAt(
          snap.file,
          { line: 1, column: 1 },
          {
            code: 'ulpi/snapshot-diverged',
            severity: ulpiCodes['ulpi/snapshot-diverged'].severity,
            message:
              state === 'reinitialised'
                ? `the snapshot is a different run than ${name} records (id/createdAt differ): it was re-initialised without the log; ckpt's writers refuse to replay the old run over it`
                : `the snapshot matches no state of ${name}: it was written without the log; ckpt's writers refuse to replay the log over it`,
            hint: `keep the file: move ${name} away; keep the logged run: ckpt ulpi rebuild <file> --force`,
          },
        ),
      );
  }
  return out;
}
