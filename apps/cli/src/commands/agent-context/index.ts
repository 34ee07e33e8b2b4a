import type { Command } from 'commander';
import { SHOW_SECRETS_HELP } from '../../output/show-secrets.js';
import { examples } from '../help.js';

/** `ckpt agent-context <verb>`: status, fingerprint and verify for OpenCode++ `.agent-context/` trees. */
export function registerAgentContextCommands(program: Command): void {
  const ac = program
    .command('agent-context')
    .description(
      'inspect OpenCode++ .agent-context/ state: tasks, orchestrator runs, fingerprints, convergence',
    )
    .addHelpText(
      'after',
      examples([
        'ckpt agent-context status',
        'ckpt agent-context verify test-fixtures/sample-project',
        'ckpt agent-context fingerprint .agent-context/runs/my-task/iterations/001/iteration.json',
      ]),
    );
  ac.command('status')
    .description(
      'tasks (state, next action, missing evidence) and orchestrator runs (phase, iteration, decision, convergence, resume point)',
    )
    .argument('[dir]', 'project directory (or the .agent-context directory itself)', '.')
    .option('--json', 'print the status as JSON')
    .option('--show-secrets', SHOW_SECRETS_HELP)
    .action(async (dir: string, opts: { json?: boolean; showSecrets?: boolean }) =>
      (await import('./status.js')).runStatus(dir, opts),
    )
    .addHelpText(
      'after',
      examples(['ckpt agent-context status', 'ckpt agent-context status ../shop-api --json']),
    );
  ac.command('fingerprint')
    .description(
      'print the normalized fingerprint state and its value (input: a fingerprint input, or a document holding one)',
    )
    .argument(
      '<input.json>',
      'a fingerprint input, or an iteration.json / decision.json / orchestrator state.json',
    )
    .option('--json', 'print {state, value, stored?, matches?} as JSON')
    .action(async (file: string, opts: { json?: boolean }) =>
      (await import('./fingerprint.js')).runFingerprint(file, opts),
    )
    .addHelpText(
      'after',
      examples([
        'ckpt agent-context fingerprint input.json',
        'ckpt agent-context fingerprint .agent-context/runs/fix-login/iterations/002/iteration.json --json',
      ]),
    );
  ac.command('verify')
    .description(
      'recompute every stored fingerprint and convergence status and report mismatches (exit 1 if any)',
    )
    .argument('[dir]', 'project directory (or the .agent-context directory itself)', '.')
    .option('--json', 'print every checked record as JSON')
    .action(async (dir: string, opts: { json?: boolean }) =>
      (await import('./verify.js')).runVerify(dir, opts),
    )
    .addHelpText(
      'after',
      examples(['ckpt agent-context verify', 'ckpt agent-context verify --json | jq .mismatches']),
    );
}
