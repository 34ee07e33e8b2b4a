import { type Command, Option } from 'commander';
import { SHOW_SECRETS_HELP } from '../../output/show-secrets.js';
import { examples } from '../help.js';

const collect = (v: string, prev: string[]) => [...prev, v];
const TERMINAL = ['completed', 'failed', 'interrupted', 'awaiting_approval'];

function common(cmd: Command): Command {
  return cmd
    .option('--project <dir>', 'project root, the directory holding .team/ (default: the current directory)')
    .option('--session <id>', 'OpenCode session id to record')
    .option('--parent-session <id>', 'parent OpenCode session id to record')
    .option('--json', 'print what was written as JSON');
}

const REFUSALS = 'Exit codes: 0 written, 2 refused (one line on stderr, nothing written) or usage error.';

/** `ckpt team status|start-run|start-task|finish-task|retry|approve`: the run_state.py verbs. */
export function registerTeamCommands(program: Command): void {
  const team = program
    .command('team')
    .description('OpenCode Team run checkpoints (.team/runs): status and the run_state.py writer verbs')
    .addHelpText(
      'after',
      `\nRun from the project root (or pass --project). Writers refuse with exit code 2 and write nothing.\n${examples(
        [
          'ckpt team status',
          'RUN=$(ckpt team start-run --profile new --stage build)',
          'ckpt team start-task --run $RUN --task build-fe --stage build --agent fe --input .team/06-architecture.md',
          'ckpt team finish-task --run $RUN --task build-fe --status completed --artifact .team/07-build-fe.md --evidence "3 pass"',
          'ckpt team approve --run $RUN --stage build --artifact .team/07-build.md --by samet',
        ],
      )}`,
    );

  team
    .command('status')
    .description('the run, each task and its attempts, approvals with stale marks, and the resume plan')
    .option('--project <dir>', 'project root, the directory holding .team/ (default: the current directory)')
    .option('--run <id>', 'a run other than the one `current` names (id or unique prefix)')
    .option('--json', 'print the status as JSON')
    .option('--show-secrets', SHOW_SECRETS_HELP)
    .addOption(
      new Option('--color <when>', 'colour output').choices(['auto', 'always', 'never']).default('auto'),
    )
    .action(async (flags) => {
      const { runTeamStatus } = await import('./status.js');
      process.exitCode = runTeamStatus(flags);
    })
    .addHelpText(
      'after',
      `\nRead status at session start, after compaction, and before planning or dispatching.\nExit codes: 0 shown (also: no runs yet), 3 --run names no run.\n${examples(
        [
          'ckpt team status',
          'ckpt team status --json',
          'ckpt team status --project ../app --run 20261028T131016577943Z-20fe61',
        ],
      )}`,
    );

  common(
    team.command('start-run').description('start a run: run.json written once, then `current` points at it'),
  )
    .requiredOption('--profile <profile>', 'pipeline profile, e.g. new')
    .requiredOption('--stage <stage>', 'the stage the run starts at, e.g. research')
    .action(async (flags) => (await import('./write.js')).runTeamWrite('start-run', flags))
    .addHelpText(
      'after',
      `\n${REFUSALS}\n${examples(['ckpt team start-run --profile new --stage research', 'RUN=$(ckpt team start-run --profile new --stage build)'])}`,
    );

  common(team.command('start-task').description('record task_started (attempt 1) before dispatching a task'))
    .requiredOption('--run <id>', 'run id')
    .requiredOption('--task <task-id>', 'task id')
    .requiredOption('--stage <stage>', 'stage of the task')
    .requiredOption('--agent <agent>', 'agent the task goes to')
    .option('--input <path>', 'project-relative input path (repeatable)', collect, [])
    .action(async (flags) => (await import('./write.js')).runTeamWrite('start-task', flags))
    .addHelpText(
      'after',
      `\n${REFUSALS} Refused: an unknown run, a task already started (use retry after a failure), paths outside the project.\n${examples(
        [
          'ckpt team start-task --run $RUN --task build-fe-20261028T1300Z --stage build --agent fe --input .team/06-architecture.md',
        ],
      )}`,
    );

  common(team.command('finish-task').description("record the terminal outcome of a task's latest attempt"))
    .requiredOption('--run <id>', 'run id')
    .requiredOption('--task <task-id>', 'task id')
    .addOption(new Option('--status <status>', 'terminal status').choices(TERMINAL).makeOptionMandatory())
    .option('--artifact <path>', 'project-relative artifact path (repeatable)', collect, [])
    .option('--evidence <text>', 'short evidence (no secrets, at most 1000 characters)', '')
    .option('--next <text>', 'short next action (no secrets, at most 500 characters)', '')
    .action(async (flags) => (await import('./write.js')).runTeamWrite('finish-task', flags))
    .addHelpText(
      'after',
      `\n${REFUSALS} Refused: an attempt never started or already finished, secret-looking or long text, paths outside the project.\n${examples(
        [
          'ckpt team finish-task --run $RUN --task build-fe-20261028T1300Z --status completed --artifact .team/07-build-fe.md --evidence "unit tests: 3 pass" --next "wait for be"',
          'ckpt team finish-task --run $RUN --task build-be-20261028T1300Z --status interrupted --evidence "tool call cancelled"',
        ],
      )}`,
    );

  common(
    team
      .command('retry')
      .description('start the next attempt of a task whose latest attempt failed or was interrupted'),
  )
    .requiredOption('--run <id>', 'run id')
    .requiredOption('--task <task-id>', 'task id')
    .requiredOption('--reason <text>', 'why the task is retried')
    .action(async (flags) => (await import('./write.js')).runTeamWrite('retry', flags))
    .addHelpText(
      'after',
      `\n${REFUSALS} Refused unless the latest attempt failed or was interrupted.\n${examples([
        'ckpt team retry --run $RUN --task build-be-20261028T1300Z --reason "flaky network in tests"',
      ])}`,
    );

  common(
    team.command('approve').description("record a human approval of an artifact's current bytes (sha256)"),
  )
    .requiredOption('--run <id>', 'run id')
    .requiredOption('--stage <stage>', 'the gate (stage) approved')
    .requiredOption('--artifact <path>', 'project-relative artifact path')
    .requiredOption('--by <user>', 'who approved')
    .option('--note <text>', 'optional note (no secrets, at most 500 characters)')
    .action(async (flags) => (await import('./write.js')).runTeamWrite('approve', flags))
    .addHelpText(
      'after',
      `\n${REFUSALS} An approval is a record, not authentication; it goes stale when the artifact changes.\n${examples(
        [
          'ckpt team approve --run $RUN --stage build --artifact .team/07-build.md --by samet --note "looks good"',
        ],
      )}`,
    );
}
