import {
  escapeTerminal,
  fingerprint,
  judgeFingerprint,
  parseJson,
  ReadRefusedError,
  readRegularFileUtf8,
  stringifyJson,
  valueText,
} from '@ckpt/core';
import { printJson, printText } from '../../output/print.js';
import { InputError, unreadable } from '../../usage-error.js';

const LISTS = ['blockingFindingIds', 'blockingGateIds', 'missingEvidence', 'requiredCommands'];
const TEXTS = ['workingTreeHash', 'decisionAction', 'contextFreshness', 'contextDrift'];

/** Finds the fingerprint input in a file: a bare input, a `{state}` fingerprint, or a document with convergence. */
function inputOf(
  v: unknown,
): { input: Record<string, unknown>; stored?: unknown; pointer: string } | undefined {
  const o = (x: unknown) =>
    x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;
  const doc = o(v);
  const fp = o(o(doc?.convergence)?.fingerprint);
  if (fp && o(fp.state))
    return { input: o(fp.state)!, stored: fp, pointer: '/convergence/fingerprint/state' };
  if (doc && o(doc.state) && 'value' in doc) return { input: o(doc.state)!, stored: doc, pointer: '/state' };
  return doc ? { input: doc, pointer: '' } : undefined;
}

/** Prints the normalized state and value of a fingerprint input (and whether a stored value matches). */
export function runFingerprint(file: string, opts: { json?: boolean }): void {
  let text: string;
  try {
    text = readRegularFileUtf8(file);
  } catch (e) {
    throw e instanceof ReadRefusedError ? e : unreadable(file, e);
  }
  const parsed = parseJson(text, file);
  if (!parsed.ok) {
    const f = parsed.findings[0];
    throw new InputError(`${file}:${f?.line ?? 1}:${f?.column ?? 1}: ${f?.message ?? 'not valid JSON'}`);
  }
  const found = inputOf(parsed.value);
  if (!found) throw new InputError(`${file}: expected a JSON object holding a fingerprint input`);
  const { input } = found;
  const bad = [
    ...TEXTS.filter((k) => typeof input[k] !== 'string'),
    ...LISTS.filter(
      (k) => !Array.isArray(input[k]) || !(input[k] as unknown[]).every((x) => typeof x === 'string'),
    ),
    ...['taskId', 'sessionId'].filter((k) => input[k] !== undefined && typeof input[k] !== 'string'),
  ];
  if (bad.length > 0) {
    const loc = parsed.sourceMap.locate(`${found.pointer}/${bad[0]}`);
    throw new InputError(
      `${file}:${loc.line}:${loc.column}: ${bad.join(', ')} missing or of the wrong type (strings; the four lists are arrays of strings)`,
    );
  }
  const fp = fingerprint(input as never);
  const verdict = found.stored ? judgeFingerprint(found.stored) : undefined;
  const result = {
    schemaVersion: fp.schemaVersion,
    value: fp.value,
    state: fp.state,
    ...(verdict ? { stored: verdict.stored, matches: verdict.stored === fp.value } : {}),
  };
  // The state is printed as hashed (a redacted state would not prove the value); JSON escapes its controls.
  if (opts.json) printJson(result);
  else {
    printText(`${stringifyJson(fp.state)}\n${fp.value}\n`);
    if (verdict)
      printText(
        verdict.stored === fp.value
          ? 'stored value matches\n'
          : `stored value ${escapeTerminal(valueText(verdict.stored))} DIFFERS\n`,
      );
  }
  if (verdict && verdict.stored !== fp.value) process.exitCode = 1;
}
