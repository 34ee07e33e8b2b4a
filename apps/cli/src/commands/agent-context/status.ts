import {
  type AgentContextStatus,
  agentContextStatus,
  forTerminal,
  latestIteration,
  redactSecretsIn,
} from '@ckpt/core';
import { printJson, printText } from '../../output/print.js';
import { existingDir } from './dir.js';

/** Prints where every task and orchestrator run stands. */
export function runStatus(dir: string, opts: { json?: boolean; showSecrets?: boolean }): void {
  const found = agentContextStatus(existingDir(dir));
  const s = opts.showSecrets ? found : redactSecretsIn(found);
  if (opts.json) {
    printJson(s);
    return;
  }
  printText(render(forTerminal(s)));
}

function render(s: AgentContextStatus): string {
  if (s.roots.length === 0) return 'no .agent-context directory found\n';
  const out: string[] = [];
  out.push(`Tasks (${s.tasks.length})`);
  for (const t of s.tasks) {
    const next = t.nextAction
      ? `next ${t.nextAction.type}${t.nextAction.blocking ? ' (blocking)' : ''}${t.nextAction.command ? `: ${t.nextAction.command}` : ''}`
      : 'no next action';
    out.push(`  ${t.taskId}  ${t.state}${t.legacy ? ' [legacy format]' : ''}  ${next}`);
    if (t.missingEvidence.length > 0) out.push(`      missing evidence: ${t.missingEvidence.join(', ')}`);
  }
  out.push('', `Orchestrator runs (${s.runs.length})`);
  for (const r of s.runs) {
    if (!r.file) {
      // Iterations without an orchestrator state: opencode-plusplus 0.1.1 and the single-file orchestrator write none.
      const last = latestIteration(r.iterations);
      const decision = last?.decision
        ? `  latest decision ${last.decision}${last.blocking ? ' (blocking)' : ''} (iteration ${last.iteration})`
        : '';
      const n = r.iterations.length;
      out.push(`  ${r.runId}  no orchestrator state  ${n} iteration${n === 1 ? '' : 's'}${decision}`);
      continue;
    }
    if (!r.supported) {
      out.push(
        `  ${r.runId}  NOT INTERPRETED: schemaVersion ${JSON.stringify(r.schemaVersion ?? null)} (expected "opencode-plusplus.orchestrator-state.v1")`,
      );
      continue;
    }
    const conv = r.convergence
      ? `${r.convergence.status}${r.convergence.stopReason ? ` (${r.convergence.stopReason})` : ''}`
      : '-';
    out.push(
      `  ${r.runId}  phase ${r.phase ?? '?'}  iteration ${r.iteration ?? '?'}  decision ${r.latestDecision?.action ?? '-'}  convergence ${conv}`,
    );
    if (r.resume) {
      const where = r.resume.done
        ? 'completed, nothing to resume'
        : `resume at ${r.resume.key}, skipping ${r.resume.skip.length} completed phases`;
      out.push(`      ${where}`);
      for (const p of r.resume.problems) out.push(`      INCONSISTENT: completedPhases ${p}`);
    }
  }
  return `${out.join('\n')}\n`;
}
