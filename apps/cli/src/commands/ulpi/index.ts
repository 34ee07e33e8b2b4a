import { CkptError } from '@ckpt/core';
import type { Command, CommanderError } from 'commander';
import { SHOW_SECRETS_HELP } from '../../output/show-secrets.js';
import { ownUsageExitCodes } from '../../usage-error.js';
import { examples } from '../help.js';

/**
 * The original `checkpoint.mjs` exits 1 on a usage error (2 is its refusal): ulpi verbs turn commander's
 * usage errors into exit 1, printed once by main as `ckpt: <message>`.
 */
function originalExitCodes(cmd: Command): Command {
  return cmd.configureOutput({ outputError: () => {} }).exitOverride((err: CommanderError) => {
    if (err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version')
      throw err;
    // No verb: commander has printed the usage to stderr already; say why in one line, exit 1 as the original.
    if (err.code === 'commander.help')
      throw new CkptError('USAGE', `${cmd.name()}: a verb is required`, { exitCode: 1 });
    throw new CkptError('USAGE', err.message.replace(/^error: /, ''), { exitCode: 1 });
  });
}

const F = '.ulpi/runs/run-2026-11-29-071300Z.json';
const lazy = () => import('./verbs.js');

/**
 * main runs `ckpt ulpi ...` through runUlpiArgv, which reads the words as the original does; commander only
 * shows the help pages and feeds completion. Should a verb still reach commander, its action hands the raw words
 * to the same runner, so both paths behave alike.
 */
async function viaRawWords(this: Command): Promise<void> {
  let root: Command = this;
  while (root.parent) root = root.parent;
  const raw = (root as unknown as { rawArgs: string[] }).rawArgs;
  const { runUlpiArgv } = await import('./run.js');
  process.exitCode = runUlpiArgv(raw.slice(raw.indexOf('ulpi') + 1));
}

/** `ckpt ulpi <verb>` (the original checkpoint.mjs verbs, plus replay/rebuild/reconcile) and `ckpt migrate`. */
export function registerUlpiCommands(program: Command): void {
  const ulpi = originalExitCodes(program.command('ulpi'))
    .description(
      'write and inspect checkpoint-resume status files (.ulpi/runs/<id>.json), as checkpoint.mjs does',
    )
    .addHelpText(
      'after',
      `\nArguments are read as checkpoint.mjs reads them: the verb, then the file, then the verb's positionals;\noptions may follow in any order, the first of a repeated option wins, unknown ones are ignored.\nExit codes: 0 ok, 1 usage or parse error, 2 refused (the file is left byte-identical).\n${examples([`ckpt ulpi init ${F} --task "add oauth" --units "a,b,c"`, `ckpt ulpi unit ${F} a done --note "merged"`, `ckpt ulpi resume ${F}`])}`,
    );
  // Unknown verbs and a missing verb are usage errors of the original (exit 1), not of ckpt (exit 2).
  ownUsageExitCodes.add(ulpi);
  const verb = (name: string, desc: string, ex: string[]) =>
    originalExitCodes(ulpi.command(name).description(desc).addHelpText('after', examples(ex)));

  verb('init', 'create a new run (refused over a live checkpoint); prints the run id', [
    `ckpt ulpi init ${F} --task "add oauth" --units "config,callback,ui"`,
    `ckpt ulpi init ${F} --task "t" --id my-run --launch '{"scriptPath":"autonomous-pipeline/scripts/pipeline.mjs","args":{"command":"resume","run":"my-run"}}'`,
  ])
    .argument('<file>', 'the status file to create')
    .option('--task <desc>', 'one-line description of the run (required)')
    .option('--units <list>', 'comma-separated unit ids')
    .option('--id <id>', 'run id (default run-YYYY-MM-DD-HHMMSSZ)')
    .option('--launch <json>', 'typed relaunch recipe {scriptPath, args?}')
    .option('--required-phases <list>', 'phases that must be done before finalize done')
    .option('--require-validation', 'finalize done needs a green final validation')
    .option('--event-log', 'start the opt-in transition log <id>.events.jsonl beside the file')
    .action(viaRawWords);

  verb('unit', 'set a unit status (a done unit is never demoted)', [
    `ckpt ulpi unit ${F} callback in_progress`,
    `ckpt ulpi unit ${F} ui pending --deps "callback"`,
  ])
    .argument('<file>')
    .argument('<unit>')
    .argument('<status>', 'pending|in_progress|done|blocked|dep_blocked')
    .option('--note <text>', 'note on the unit')
    .option('--deps <list>', 'comma-separated dependencies (replaces dependsOn)')
    .action(viaRawWords);

  verb('phase', 'set a phase status (running also sets currentPhase)', [`ckpt ulpi phase ${F} build running`])
    .argument('<file>')
    .argument('<phase>')
    .argument('<status>', 'pending|running|done|blocked|skipped')
    .action(viaRawWords);

  verb('get', 'print the document (never writes; a v1 file stays byte-identical)', [
    `ckpt ulpi get ${F} --summary`,
  ])
    .argument('<file>')
    .option(
      '--summary',
      'print {id, status, task, currentPhase, total, done, blocked, dep_blocked, in_progress, updatedAt}',
    )
    .option('--show-secrets', SHOW_SECRETS_HELP)
    .action(viaRawWords);

  verb('resume', 'print the resume set {skip, eligible, dep_blocked} (never writes)', [
    `ckpt ulpi resume ${F}`,
  ])
    .argument('<file>')
    .option('--show-secrets', SHOW_SECRETS_HELP)
    .action(viaRawWords);

  verb('item', 'upsert open items (stable ids); prints the ids', [
    `ckpt ulpi item ${F} --json '{"kind":"decision","severity":"blocker","detail":"PCI sign-off"}'`,
  ])
    .argument('<file>')
    .option('--json <json>', 'any JSON value: an item object, or an array of items (required)')
    .action(viaRawWords);

  verb('resolve', 'move open items to resolvedItems by id; prints the ids moved', [
    `ckpt ulpi resolve ${F} --ids "pci-review,f-3c9d2e7a41b0"`,
  ])
    .argument('<file>')
    .option('--ids <list>', 'comma-separated item ids')
    .option('--json <json>', 'a JSON id or array of ids (instead of --ids)')
    .action(viaRawWords);

  verb('validation', 'record the final validation verdict (pass/ok → green, fail → red)', [
    `ckpt ulpi validation ${F} green --note "lint, unit, e2e"`,
  ])
    .argument('<file>')
    .argument('<status>', 'green|red (aliases pass, ok, fail)')
    .option('--note <text>', 'note')
    .action(viaRawWords);

  verb('finalize', 'set the terminal status; done is refused while anything is open', [
    `ckpt ulpi finalize ${F} done --result "3/3 units"`,
    `ckpt ulpi finalize ${F} needs_attention`,
  ])
    .argument('<file>')
    .argument('<status>', 'done|needs_attention|aborted')
    .option('--result <text>', 'result summary')
    .action(viaRawWords);

  verb('gc', 'archive terminal runs older than N days into <runs-dir>/archive (never running ones)', [
    'ckpt ulpi gc .ulpi/runs --keep-days 14',
  ])
    .argument('<runs-dir>')
    .option('--keep-days <n>', 'age in days', '7')
    .action(viaRawWords);

  verb('replay', 'print the document the event log replays to (never writes)', [`ckpt ulpi replay ${F}`])
    .argument('<file>', 'the status file or its .events.jsonl')
    .action(viaRawWords);

  verb('rebuild', 'repair after a crash: truncate a torn log tail, rebuild the snapshot from the log', [
    `ckpt ulpi rebuild ${F}`,
  ])
    .argument('<file>', 'the status file or its .events.jsonl')
    .option('--force', 'also replace a snapshot written without the log (it is refused otherwise)')
    .action(viaRawWords);

  verb(
    'reconcile',
    'mark units done from Task-Id trailers reachable from the integration ref; flag stale done units',
    [`ckpt ulpi reconcile ${F} --git`, `ckpt ulpi reconcile ${F} --git --ref refs/heads/ulpi-int-my-run`],
  )
    .argument('<file>')
    .option('--git', 'reconcile from git trailers (the only source so far)')
    .option(
      '--ref <ref>',
      'integration ref (default pipeline.integrationRef, a legacy launch workingBranch, else HEAD)',
    )
    .option('--repo <dir>', 'the git repository (default: the current directory)')
    .option('--json', 'print the result as JSON')
    .action(viaRawWords);

  // The file is checked in the action (exit 1) so that `ckpt migrate` alone explains itself in one line.
  const migrate = originalExitCodes(
    program
      .command('migrate')
      .description('show (or with --write apply) the add-only v1 → v2 upgrade of a ulpi status file')
      .argument('[file]', 'the status file')
      .option('--write', 'apply the upgrade in place (atomic, under the lock)')
      .option('--json', 'print the migration as JSON')
      .option('--show-secrets', SHOW_SECRETS_HELP)
      .addHelpText(
        'after',
        examples([
          'ckpt migrate .ulpi/runs/lint-sweep-20260812T140210Z.json',
          'ckpt migrate .ulpi/runs/lint-sweep-20260812T140210Z.json --write',
        ]),
      ),
  );
  // Its usage errors (an unknown option) exit 1 with a message like the verbs', not 2 with none.
  ownUsageExitCodes.add(migrate);
  migrate.action(async (file: string | undefined, o) => {
    if (!file) throw new CkptError('USAGE', "missing required argument 'file'", { exitCode: 1 });
    (await lazy()).runMigrate(file, o.write === true, o.json === true, o.showSecrets === true);
  });
}
