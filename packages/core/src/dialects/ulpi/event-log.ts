import { valueText } from '../../text/value-text.js';
import { createHash } from '../../util/crypto.js';
import { isObject, setOwn } from './model.js';

/**
 * Marks line `i` of an `n`-line transaction (one command's change, n >= 2). The original's replay reads `v`, `op`,
 * `path`, `value` and the hashes only, so it replays these lines as it replays its own; ckpt's replay uses the
 * marker to ignore a transaction whose last lines never landed (a short write, a crash inside the append).
 */
export interface UlpiTxMark {
  readonly i: number;
  readonly n: number;
}

/** One line of the transition log. */
export type UlpiEventLine =
  | { v: 1; op: 'init'; doc: Record<string, unknown>; afterHash: string }
  | {
      v: 1;
      op: 'set' | 'merge';
      path: string[];
      value: unknown;
      beforeHash: string;
      afterHash: string;
      tx?: UlpiTxMark;
    }
  | { v: 1; op: 'delete'; path: string[]; beforeHash: string; afterHash: string; tx?: UlpiTxMark };

/** A transition before it is hashed. */
export type UlpiTransition =
  | { op: 'set' | 'merge'; path: string[]; value: unknown }
  | { op: 'delete'; path: string[] };

/** Why replay failed closed: the line and the finding code that explains it. */
export interface UlpiReplayError {
  readonly line: number;
  readonly code:
    | 'parse/invalid-jsonl-line'
    | 'ulpi/event-log-missing-init'
    | 'ulpi/event-log-repeated-init'
    | 'ulpi/event-log-chain'
    | 'ulpi/event-log-bad-transition';
  readonly message: string;
}

export type UlpiReplay =
  | {
      readonly ok: true;
      readonly doc: Record<string, unknown>;
      readonly hash: string;
      /** afterHash of every line, in order (to tell a snapshot behind the log from a diverged one). */
      readonly hashes: readonly string[];
      /** Bytes of the lines replayed; a torn tail (and a torn transaction) starts here. */
      readonly completeBytes: number;
      /** What replay ignored at the end: a final fragment without a newline and/or a torn transaction's lines. */
      readonly tornTail: string | undefined;
      /** A trailing transaction that did not land whole: its first line, how many of its lines landed, of how many. */
      readonly tornTransaction?: { readonly line: number; readonly landed: number; readonly of: number };
      /** afterHash of each ignored line of a torn transaction (states a tool that replays it would show). */
      readonly tornHashes: readonly string[];
    }
  | { readonly ok: false; readonly error: UlpiReplayError };

const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

/** sha256 hex of the compact JSON of a document in insertion order: the hash every log line carries. */
export function hashUlpiDoc(doc: unknown): string {
  return createHash('sha256').update(JSON.stringify(doc)).digest('hex');
}

function badPath(path: unknown): string | undefined {
  if (!Array.isArray(path) || path.length === 0) return 'path must be a non-empty array';
  for (const k of path) {
    if (typeof k !== 'string' || k === '') return 'path keys must be non-empty strings';
    if (FORBIDDEN.has(k)) return `path key "${k}" is forbidden`;
  }
  return undefined;
}

/** Applies one transition to a document in place. Returns an error message instead of throwing. */
export function applyUlpiTransition(doc: Record<string, unknown>, t: UlpiTransition): string | undefined {
  const problem = badPath(t.path);
  if (problem) return problem;
  let target: Record<string, unknown> = doc;
  for (const k of t.path.slice(0, -1)) {
    const next = Object.hasOwn(target, k) ? target[k] : undefined;
    if (next === undefined && t.op !== 'delete') {
      const created: Record<string, unknown> = {};
      setOwn(target, k, created);
      target = created;
    } else if (isObject(next)) target = next;
    else return `path ${JSON.stringify(t.path)} does not lead through objects`;
  }
  const last = t.path[t.path.length - 1]!;
  if (t.op === 'delete') {
    if (Object.hasOwn(target, last)) delete target[last];
    return undefined;
  }
  // A JSON round trip keeps an own `__proto__` key as data (structuredClone and spread do not promise that).
  const value: unknown = t.value === undefined ? undefined : JSON.parse(JSON.stringify(t.value));
  if (t.op === 'set') {
    setOwn(target, last, value);
    return undefined;
  }
  if (!isObject(value)) return 'a merge value must be an object';
  const cur = Object.hasOwn(target, last) ? target[last] : undefined;
  if (cur !== undefined && !isObject(cur)) return `merge target ${JSON.stringify(t.path)} is not an object`;
  const obj = (cur as Record<string, unknown> | undefined) ?? {};
  for (const [k, v] of Object.entries(value)) setOwn(obj, k, v);
  if (cur === undefined) setOwn(target, last, obj);
  return undefined;
}

/**
 * Replays a transition log. Only a final fragment without a newline is discarded (a torn append); a corrupt
 * complete line, a missing or repeated init, a path that cannot apply and a broken before/after hash chain all
 * fail closed with the line that broke it.
 */
export function replayUlpiEventLog(text: string): UlpiReplay {
  const parts = text.split('\n');
  const fragment = parts.pop()!;
  // A trailing transaction that did not land whole is ignored like a fragment: its lines are cut off here.
  const torn = tornTransactionAt(parts);
  let tail = fragment;
  let tornHashes: string[] = [];
  if (torn !== undefined) {
    const cut = parts.splice(torn.index);
    tail = `${cut.join('\n')}\n${fragment}`;
    tornHashes = torn.hashes;
  }
  const completeBytes = Buffer.byteLength(text) - Buffer.byteLength(tail);
  let doc: Record<string, unknown> | undefined;
  let hash = '';
  const hashes: string[] = [];
  const fail = (line: number, code: UlpiReplayError['code'], message: string): UlpiReplay => ({
    ok: false,
    error: { line, code, message: `line ${line}: ${message}` },
  });
  for (let i = 0; i < parts.length; i++) {
    const n = i + 1;
    const raw = parts[i]!.replace(/\r$/, '');
    if (raw.trim() === '') continue;
    let line: Record<string, unknown>;
    try {
      const v: unknown = JSON.parse(raw);
      if (!isObject(v)) return fail(n, 'parse/invalid-jsonl-line', 'not a JSON object');
      line = v;
    } catch (e) {
      return fail(n, 'parse/invalid-jsonl-line', `corrupt complete line: ${(e as Error).message}`);
    }
    if (line.op === 'init') {
      if (doc !== undefined) return fail(n, 'ulpi/event-log-repeated-init', 'a second init line');
      if (!isObject(line.doc)) return fail(n, 'ulpi/event-log-bad-transition', 'init has no doc object');
      doc = line.doc;
      hash = hashUlpiDoc(doc);
      if (line.afterHash !== hash)
        return fail(n, 'ulpi/event-log-chain', 'init afterHash is not the hash of its doc');
      hashes.push(hash);
      continue;
    }
    if (doc === undefined)
      return fail(n, 'ulpi/event-log-missing-init', 'the log does not start with an init line');
    if (line.beforeHash !== hash)
      return fail(
        n,
        'ulpi/event-log-chain',
        `beforeHash ${valueText(line.beforeHash).slice(0, 12)}… is not the previous afterHash ${hash.slice(0, 12)}…`,
      );
    if (line.op !== 'set' && line.op !== 'merge' && line.op !== 'delete')
      return fail(n, 'ulpi/event-log-bad-transition', `unknown op ${JSON.stringify(line.op)}`);
    if (line.op !== 'delete' && !Object.hasOwn(line, 'value'))
      return fail(n, 'ulpi/event-log-bad-transition', `${line.op} has no value`);
    const problem = applyUlpiTransition(doc, line as unknown as UlpiTransition);
    if (problem) return fail(n, 'ulpi/event-log-bad-transition', problem);
    hash = hashUlpiDoc(doc);
    if (line.afterHash !== hash)
      return fail(
        n,
        'ulpi/event-log-chain',
        'afterHash is not the hash of the document after this transition',
      );
    hashes.push(hash);
  }
  if (doc === undefined) return fail(1, 'ulpi/event-log-missing-init', 'the log has no init line');
  return {
    ok: true,
    doc,
    hash,
    hashes,
    completeBytes,
    tornTail: tail === '' ? undefined : tail,
    ...(torn !== undefined
      ? { tornTransaction: { line: torn.index + 1, landed: torn.landed, of: torn.of } }
      : {}),
    tornHashes,
  };
}

const txOf = (raw: string | undefined): { i: number; n: number; afterHash: unknown } | undefined => {
  if (raw === undefined || !raw.includes('"tx"')) return undefined;
  try {
    const v: unknown = JSON.parse(raw.replace(/\r$/, ''));
    if (!isObject(v) || !isObject(v.tx)) return undefined;
    const { i, n } = v.tx;
    if (
      !Number.isSafeInteger(i) ||
      !Number.isSafeInteger(n) ||
      (i as number) < 1 ||
      (i as number) > (n as number)
    )
      return undefined;
    return { i: i as number, n: n as number, afterHash: v.afterHash };
  } catch {
    return undefined;
  }
};

/**
 * The trailing transaction that did not land whole, if any: the last complete lines are lines 1..k of an n-line
 * transaction (`tx` marks, k < n, numbered in order). Only the end of the log is looked at (a few lines parsed
 * backwards): a torn transaction in the middle, which a tool that ignores the marks appended after, is replayed as
 * its lines say (the chain decides), never cut.
 */
function tornTransactionAt(
  parts: readonly string[],
): { index: number; landed: number; of: number; hashes: string[] } | undefined {
  let k = parts.length - 1;
  while (k >= 0 && parts[k]!.trim() === '') k--;
  const last = txOf(parts[k]);
  if (last === undefined || last.i === last.n) return undefined;
  const hashes: string[] = [];
  for (let want = last.i; want >= 1; want--, k--) {
    const t = want === last.i ? last : txOf(parts[k]);
    if (t === undefined || t.i !== want || t.n !== last.n) return undefined;
    hashes.unshift(valueText(t.afterHash));
  }
  return { index: k + 1, landed: last.i, of: last.n, hashes };
}

/**
 * The transitions that turn `before` into `after`: recursive into objects present in both, a `set` for every
 * changed or added value (arrays and scalars whole), a `delete` for every removed key. Applying them in order to
 * `before` gives a document with the same JSON (key order included) as `after` when `after` was made by mutating
 * `before` in place, which is how every verb works.
 */
export function diffUlpiDocs(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  base: string[] = [],
): UlpiTransition[] {
  const out: UlpiTransition[] = [];
  for (const k of Object.keys(before))
    if (!Object.hasOwn(after, k)) out.push({ op: 'delete', path: [...base, k] });
  for (const [k, v] of Object.entries(after)) {
    const had = Object.hasOwn(before, k);
    const old = had ? before[k] : undefined;
    if (had && isObject(old) && isObject(v) && !FORBIDDEN.has(k))
      out.push(...diffUlpiDocs(old, v, [...base, k]));
    else if (!had || JSON.stringify(old) !== JSON.stringify(v))
      out.push({ op: 'set', path: [...base, k], value: v });
  }
  // A key a path may not name (`__proto__`...) changed here: replace this whole object instead.
  if (base.length > 0 && out.some((t) => t.path.slice(base.length).some((k) => FORBIDDEN.has(k))))
    return [{ op: 'set', path: base, value: after }];
  return out;
}
