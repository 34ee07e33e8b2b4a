import { type Command, InvalidArgumentError, Option } from 'commander';
import { SHOW_SECRETS_HELP } from '../../output/show-secrets.js';
import { examples } from '../help.js';

const where = (cmd: Command) =>
  cmd
    .option('--run <root>', 'the run root (a path, or a <task>-<run-id> name under <config-dir>/reports)')
    .option('--config-dir <dir>', 'the OpenCode config dir holding reports/ (default: $OPENCODE_CONFIG_DIR)');
const holder = (cmd: Command) =>
  cmd.addOption(
    new Option(
      '--pid <pid>',
      'the process the lock belongs to (default: the calling shell, our parent)',
    ).argParser((v) => {
      if (!/^[0-9]+$/.test(v)) throw new InvalidArgumentError(`--pid must be a number, got "${v}"`);
      return Number(v);
    }),
  );
const load = () => import('./run.js');

/** `ckpt resumable <verb>`: status and the writer verbs of Resumable Execution run roots. */
export function registerResumableCommands(program: Command): void {
  const r = program
    .command('resumable')
    .description(
      'inspect and drive Resumable Execution run roots ($OPENCODE_CONFIG_DIR/reports/<task>-<run-id>/)',
    )
    .addHelpText(
      'after',
      examples([
        'ckpt resumable status test-fixtures/sample-project',
        'ckpt resumable lock --run "$RUN_ROOT"',
        'ckpt resumable stage-done --run "$RUN_ROOT" S1',
      ]),
    );
  r.command('status')
    .description('show each run root: stages and checks, stop conditions, resume window, where to go on from')
    .argument('[dir]', 'a run root, a config dir or a project (default: --run, $OPENCODE_CONFIG_DIR, or .)')
    .option('--run <root>', 'the run root')
    .option('--json', 'print JSON')
    .option('--show-secrets', SHOW_SECRETS_HELP)
    .action(async (dir, opts) => (await load()).status(dir, opts))
    .addHelpText(
      'after',
      `\nExit codes: 0 shown (also with stop conditions), 3 nothing found.\n${examples([
        'ckpt resumable status',
        'ckpt resumable status .opencode/reports/release-v2-4-0-20261128T101500Z',
        'ckpt resumable status --json | jq ".[0].resume.window"',
      ])}`,
    );
  where(
    r
      .command('init')
      .description(
        'bootstrap a run root: contract (recorded once in artifacts/contract.env), checklist, state',
      )
      .requiredOption('--task <name>', 'task name (letters, digits, . _ -)')
      .requiredOption('--repo-root <path>', 'immutable contract: repository root')
      .requiredOption('--branch <name>', 'immutable contract: branch')
      .requiredOption('--base-pin <sha>', 'immutable contract: base commit (full SHA)')
      .requiredOption('--expected-old-sha <sha>', 'immutable contract: remote SHA the push lease expects')
      .requiredOption('--plan <path>', 'immutable contract: plan path')
      .option('--report-targets <list>', 'immutable contract: comma-separated report files', '')
      .option('--stages <list>', 'stage names', 'S1,S2,S3,S4')
      .option('--check <stage:item...>', 'checklist items created as 0, e.g. S1:CLEAN_WORKTREE')
      .option('--run-id <id>', 'run id (default: now, yyyymmddThhmmssZ)'),
  )
    .action(async (opts) => (await load()).init(opts))
    .addHelpText(
      'after',
      `\nPrints the run root on stdout. Exit codes: 0 created, 2 refused or bad arguments.\n${examples([
        'RUN_ROOT=$(ckpt resumable init --task release-v2-4-0 --repo-root "$PWD" --branch main --base-pin $(git rev-parse HEAD) --expected-old-sha $(git rev-parse origin/main) --plan docs/plans/release.md --check S1:CLEAN_WORKTREE --check S2:COMMIT_CREATED)',
      ])}`,
    );
  holder(
    where(r.command('lock').description('take the single-writer lock (a stale one is logged and replaced)')),
  )
    .option('--steal', 'take over a lock held on another host or unreadable (only once its holder is gone)')
    .action(async (opts) => (await load()).lock(opts))
    .addHelpText(
      'after',
      `\nExit codes: 0 held, 2 an active lock refuses.\n${examples(['ckpt resumable lock --run "$RUN_ROOT"', 'ckpt resumable lock --run "$RUN_ROOT" --pid $$'])}`,
    );
  holder(where(r.command('unlock').description('remove the lock (on normal and on failure exit)')))
    .option('--force', 'remove a lock this process does not hold')
    .action(async (opts) => (await load()).unlock(opts))
    .addHelpText('after', examples(['trap \'ckpt resumable unlock --run "$RUN_ROOT" --pid $$\' EXIT']));
  holder(where(r.command('check').description('set a checklist item CB_<STAGE>_<ITEM> to 1 (or 0)')))
    .argument('<stage>', 'S<n> or M<n>')
    .argument('<item>', 'item name, A-Z 0-9 _')
    .argument('[value]', '0 or 1', '1')
    .action(async (stage, item, value, opts) => (await load()).check(stage, item, value, opts))
    .addHelpText(
      'after',
      examples(['ckpt resumable check S3 TESTS_PASS', 'ckpt resumable check S3 LINT_PASS 0']),
    );
  holder(
    where(r.command('stage-done').description('mark a stage done (refused while a required check is not 1)')),
  )
    .argument('<stage>', 'S<n> or M<n>')
    .action(async (stage, opts) => (await load()).stageDone(stage, opts))
    .addHelpText(
      'after',
      `\nExit codes: 0 done, 2 refused (open checks, missing artifacts, earlier stage open, contract drift).\n${examples(['ckpt resumable stage-done S3'])}`,
    );
  holder(where(r.command('log').description('append a [time] line to run.log')))
    .argument('<message...>', 'the message')
    .action(async (words, opts) => (await load()).log(words, opts))
    .addHelpText('after', examples(['ckpt resumable log "S2 patch applied, commit 4be1c0d"']));
  holder(
    where(
      r
        .command('finalize')
        .description('append the RUN_ID summary block once and set the finalization flags'),
    ),
  )
    .option('--summary <text>', 'the summary text')
    .action(async (opts) => (await load()).finalize(opts))
    .addHelpText(
      'after',
      `\nIdempotent: a second finalize changes nothing. Exit codes: 0, 2 refused before the push is confirmed.\n${examples(['ckpt resumable finalize --summary "v2.4.0 released"'])}`,
    );
}
