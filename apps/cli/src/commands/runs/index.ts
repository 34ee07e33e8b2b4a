import { type Command, Option } from 'commander';
import { SHOW_SECRETS_HELP } from '../../output/show-secrets.js';
import { examples } from '../help.js';

const DIALECTS = ['team', 'resumable', 'ulpi', 'agent-context'];
const PROJECT_DIR_HELP =
  'project folder (default: the nearest folder at or above the current one holding .team/, .ulpi/, .agent-context/ or resumable reports/)';

const colorOption = () =>
  new Option('--color <when>', 'colour output').choices(['auto', 'always', 'never']).default('auto');

/** `ckpt status`, `ckpt list`, `ckpt resume`, `ckpt view`: every run of every dialect, read through core's `loadProject`. */
export function registerRunCommands(program: Command): void {
  program
    .command('status')
    .description('show every run of every dialect (newest first), or one run in detail with --run')
    .argument('[dir]', PROJECT_DIR_HELP)
    .option('--run <id>', 'show this run in detail (an id, a unique prefix, or <dialect>/<id>)')
    .addOption(new Option('-d, --dialect <dialect>', 'only runs of this dialect').choices(DIALECTS))
    .option('--json', `print the RunView JSON document (versioned by formatVersion)`)
    .option('--exit-status', 'exit 1 when a run shown needs attention (attention level action or blocked)')
    .option('--show-secrets', SHOW_SECRETS_HELP)
    .addOption(colorOption())
    .action(async (dir: string | undefined, flags) => {
      const { runStatus } = await import('./status.js');
      process.exitCode = runStatus(dir, flags);
    })
    .addHelpText(
      'after',
      `
Exit codes: 0 ok, 1 a run needs attention (with --exit-status), 2 usage error, 3 directory or run not found, or no runs.
${examples([
  'ckpt status',
  'ckpt status test-fixtures/sample-project --dialect team',
  'ckpt status --run 20261128T140312558021Z-a41c7f',
  'ckpt status --run ulpi/add-oauth --json | jq .run.counts',
  'ckpt status --exit-status || echo "a run needs attention"',
])}`,
    );

  program
    .command('list')
    .description('list every run of every dialect, one line each (newest first), as `ckpt status` does')
    .argument('[dir]', PROJECT_DIR_HELP)
    .addOption(new Option('-d, --dialect <dialect>', 'only runs of this dialect').choices(DIALECTS))
    .option('--json', 'print the one-line facts of every run as JSON (the summaries document, no units)')
    .option('--exit-status', 'exit 1 when a run listed needs attention')
    .option('--show-secrets', SHOW_SECRETS_HELP)
    .addOption(colorOption())
    .action(async (dir: string | undefined, flags) => {
      const { runList } = await import('./status.js');
      process.exitCode = runList(dir, flags);
    })
    .addHelpText(
      'after',
      `
Exit codes: 0 ok, 1 a run needs attention (with --exit-status), 2 usage error, 3 directory not found, or no runs.
${examples([
  'ckpt list',
  'ckpt list test-fixtures/sample-project --dialect ulpi',
  `ckpt list --json | jq -r '.runs[] | select(.attention.level != "none" and .attention.level != "info") | .id'`,
])}`,
    );

  program
    .command('resume')
    .description('show what resuming a run will do: skip, run next, blocked and why, needs a person')
    .argument('[dir]', PROJECT_DIR_HELP)
    .requiredOption('--run <id>', 'the run (an id, a unique prefix, or <dialect>/<id>)')
    .addOption(
      new Option('-d, --dialect <dialect>', 'look the run up among this dialect only').choices(DIALECTS),
    )
    .option('--json', 'print the resume plan JSON document (versioned by formatVersion)')
    .option(
      '--exit-status',
      'exit 1 when the run needs attention (the same attention as `ckpt status` shows)',
    )
    .option('--show-secrets', SHOW_SECRETS_HELP)
    .addOption(colorOption())
    .action(async (dir: string | undefined, flags) => {
      const { runResume } = await import('./resume.js');
      process.exitCode = runResume(dir, flags);
    })
    .addHelpText(
      'after',
      `
Exit codes: 0 ok, 1 resuming needs attention (with --exit-status), 2 usage error, 3 directory or run not found, or no runs.
${examples([
  'ckpt resume --run 20261128T140312558021Z-a41c7f',
  'ckpt resume test-fixtures/sample-project --run release-v2-4-0-20261128T101500Z',
  'ckpt resume --run ulpi/add-oauth --json | jq .resume.runNext',
  'ckpt resume --run add-rate-limit --exit-status && ./resume.sh',
])}`,
    );

  program
    .command('history')
    .description(
      "show a run's events oldest first (or one unit's), each with the file and line it was read from",
    )
    .argument('[dir]', PROJECT_DIR_HELP)
    .requiredOption('--run <id>', 'the run (an id, a unique prefix, or <dialect>/<id>)')
    .option('--unit <id>', 'only the events of this unit (task, unit, stage)')
    .option(
      '--kinds <list>',
      'only these kinds, comma-separated (started,finished,failed,retried,approved,lock,...)',
    )
    .addOption(
      new Option('-d, --dialect <dialect>', 'look the run up among this dialect only').choices(DIALECTS),
    )
    .option('--json', 'print the history JSON document (versioned by formatVersion)')
    .option('--show-secrets', SHOW_SECRETS_HELP)
    .addOption(colorOption())
    .action(async (dir: string | undefined, flags) => {
      const { runHistoryCommand } = await import('./history.js');
      process.exitCode = runHistoryCommand(dir, flags);
    })
    .addHelpText(
      'after',
      `
Exit codes: 0 ok, 2 usage error (an unknown kind), 3 directory, run or unit not found, or no runs.
${examples([
  'ckpt history --run 20261128T140312558021Z-a41c7f --unit build-be-20261128T1404Z',
  'ckpt history test-fixtures/sample-project --run ulpi/add-oauth --kinds started,finished',
  'ckpt history --run release-v2-4-0-20261128T101500Z --json | jq .entries[0]',
])}`,
    );

  program
    .command('view')
    .description(
      'serve the read-only web viewer of every run under a directory (live, on 127.0.0.1 by default)',
    )
    .argument('[dir]', PROJECT_DIR_HELP)
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', '4173')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '--allow-remote',
      'allow a --host other than loopback (prints a warning; the URL then carries an access token)',
    )
    .option(
      '--allowed-host <name>',
      'a Host name the viewer answers to beside loopback and its own address (repeatable; with --allow-remote)',
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .option('--open', 'open the viewer in the default browser')
    .action(async (dir: string | undefined, flags) => {
      const { runView } = await import('./view.js');
      process.exitCode = await runView(dir, flags);
    })
    .addHelpText(
      'after',
      `
The viewer only reads: GET and HEAD, nothing outside <dir>, no network requests beyond the server.
On loopback (the default) it answers only to loopback Host names. Any other --host needs --allow-remote: then every
request must carry the random token of the printed URL (kept in a cookie after the first load), and only Host names
of this machine or given with --allowed-host are answered.
Exit codes: 0 stopped, 2 usage error (bad port, port in use), 3 directory not found, or no runs.
${examples([
  'ckpt view',
  'ckpt view test-fixtures/sample-project',
  'ckpt view . --port 0',
  'ckpt view . --host 0.0.0.0 --port 8080 --allow-remote --allowed-host devbox.lan',
])}`,
    );
}
