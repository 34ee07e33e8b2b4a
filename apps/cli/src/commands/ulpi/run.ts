import { ulpiUsage } from '@ckpt/core';
import { csv, optionValue as opt, ULPI_USAGE } from './argv.js';
import * as verbs from './verbs.js';

type Verb = (file: string, rest: readonly string[]) => number | undefined;

// Each verb reads its options in the original's order, so the same bad input gets the same first complaint.
const table: Record<string, Verb> = {
  init(file, rest) {
    const task = opt(rest, '--task');
    if (task === undefined) throw ulpiUsage('init requires --task "<desc>"');
    const id = opt(rest, '--id');
    const units = csv(opt(rest, '--units', ''));
    const requiredPhases = csv(opt(rest, '--required-phases', ''));
    const launch = opt(rest, '--launch');
    verbs.runInit(file, {
      task,
      units,
      requiredPhases,
      ...(id !== undefined ? { id } : {}),
      ...(launch !== undefined ? { launch } : {}),
      ...(rest.includes('--require-validation') ? { requireValidation: true } : {}),
      ...(rest.includes('--event-log') ? { eventLog: true } : {}),
    });
    return undefined;
  },
  unit(file, rest) {
    const [unit = '', status = ''] = rest;
    const note = opt(rest, '--note');
    const deps = opt(rest, '--deps');
    verbs.runUnit(file, unit, status, {
      ...(note !== undefined ? { note } : {}),
      ...(deps !== undefined ? { deps: csv(deps) } : {}),
    });
    return undefined;
  },
  phase(file, rest) {
    verbs.runPhase(file, rest[0] ?? '', rest[1] ?? '');
    return undefined;
  },
  get(file, rest) {
    verbs.runGet(file, rest.includes('--summary'), rest.includes('--show-secrets'));
    return undefined;
  },
  resume(file, rest) {
    verbs.runResume(file, rest.includes('--show-secrets'));
    return undefined;
  },
  item(file, rest) {
    const raw = opt(rest, '--json');
    if (raw === undefined) throw ulpiUsage("item requires --json '<object-or-array>'");
    verbs.runItem(file, raw);
    return undefined;
  },
  resolve(file, rest) {
    const ids = opt(rest, '--ids');
    verbs.runResolve(
      file,
      ids !== undefined ? csv(ids) : undefined,
      ids === undefined ? opt(rest, '--json') : undefined,
    );
    return undefined;
  },
  validation(file, rest) {
    const note = opt(rest, '--note');
    verbs.runValidation(file, rest[0] ?? '', note);
    return undefined;
  },
  finalize(file, rest) {
    const result = opt(rest, '--result');
    verbs.runFinalize(file, rest[0] ?? '', result);
    return undefined;
  },
  gc(dir, rest) {
    return verbs.runGc(dir, Number(opt(rest, '--keep-days', '7')));
  },
  // ckpt's own verbs (not in the original), read the same way.
  replay(file) {
    verbs.runReplay(file);
    return undefined;
  },
  rebuild(file, rest) {
    verbs.runRebuild(file, rest.includes('--force'));
    return undefined;
  },
  reconcile(file, rest) {
    const ref = opt(rest, '--ref');
    const repo = opt(rest, '--repo');
    verbs.runReconcile(file, {
      git: rest.includes('--git'),
      json: rest.includes('--json'),
      ...(ref !== undefined ? { ref } : {}),
      ...(repo !== undefined ? { repo } : {}),
    });
    return undefined;
  },
};

/**
 * Runs `ckpt ulpi <verb> <file> ...` from its raw words, as the original reads them. Returns the exit code; errors
 * are CkptErrors (1 usage/parse, 2 refusal) that main prints as one line.
 */
export function runUlpiArgv(args: readonly string[]): number {
  const [verb, file, ...rest] = args;
  if (!verb || !file) throw ulpiUsage(ULPI_USAGE);
  const run = Object.hasOwn(table, verb) ? table[verb] : undefined;
  if (!run) throw ulpiUsage(`unknown command '${verb}'`);
  return run(file, rest) ?? 0;
}
