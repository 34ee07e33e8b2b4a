import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The built bin, as a user runs it.
const bin = resolve(import.meta.dirname, '../../../bin/ckpt.js');
const recorded = (name: string) =>
  resolve(import.meta.dirname, '../../../../../test-fixtures/agent-context', name);
function runCli(args: readonly string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout };
}

describe('ckpt agent-context status on trees the real opencode-plusplus 0.1.1 wrote', () => {
  it('should say a run has no orchestrator state, with its last loop decision, not that it is unsupported', () => {
    const r = runCli(['agent-context', 'status', recorded('recorded-orchestrate-max-loops')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'Tasks (1)',
        '  fix-add-rounding  EDIT_BOUNDARY_READY [legacy format]  next start_agent',
        '      missing evidence: agent_edit',
        '',
        'Orchestrator runs (1)',
        '  fix-add-rounding  no orchestrator state  3 iterations  latest decision human-review (blocking) (iteration 3)',
        '',
      ].join('\n'),
    );
  });

  it('should name the iteration written last after a shorter rerun', () => {
    const r = runCli(['agent-context', 'status', recorded('recorded-orchestrate-rerun-shorter')]);
    expect(r.stdout).toContain(
      '  fix-add-rounding  no orchestrator state  3 iterations  latest decision human-review (blocking) (iteration 1)\n',
    );
    expect(r.stdout).not.toContain('NOT INTERPRETED');
  });

  it('should still name an orchestrator state it does not interpret', () => {
    const r = runCli(['agent-context', 'status', recorded('orchestrator-state-unknown-schema-version')]);
    expect(r.stdout).toMatch(/NOT INTERPRETED: schemaVersion /);
  });
});
