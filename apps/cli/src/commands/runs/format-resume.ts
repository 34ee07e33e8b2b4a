import {
  escapeTerminalLines,
  needsPerson,
  type ResumeItem,
  type ResumePlan,
  type RunView,
  shellWord,
} from '@ckpt/core';
import type { Colors } from '../../output/color.js';
import { safe } from './text.js';

function items(
  c: Colors,
  title: string,
  list: readonly ResumeItem[],
  limit: number,
  paint: (s: string) => string,
) {
  if (list.length === 0) return '';
  const shown = list.slice(0, limit);
  const rest = list.length - shown.length;
  return (
    `  ${paint(title)} ${c.dim(`(${list.length})`)}\n` +
    shown.map((i) => `    ${safe(i.id)}  ${c.dim(safe(i.reason))}\n`).join('') +
    (rest > 0 ? c.dim(`    … ${rest} more (--json lists all)\n`) : '')
  );
}

/** The resume plan as text: summary, run next, blocked, needs a person, skip, command, notes. */
export function formatPlan(plan: ResumePlan, c: Colors, limit = 50): string {
  return [
    `  ${c.bold(safe(plan.summary))}\n`,
    items(c, 'run next', plan.runNext, limit, c.cyan),
    items(c, 'blocked', plan.blocked, limit, c.red),
    items(c, 'needs a person', plan.needsPerson, limit, c.yellow),
    items(c, 'skip', plan.skip, Math.min(limit, 20), c.green),
    plan.command ? `  ${c.bold('command')}\n    ${escapeTerminalLines(plan.command.shell)}\n` : '',
    plan.notes.length > 0
      ? `  ${c.dim('notes')}\n${plan.notes.map((n) => `    ${c.dim(safe(n))}\n`).join('')}`
      : '',
  ].join('');
}

/** `ckpt resume` text: which run, then its plan. */
export function formatResume(run: RunView, c: Colors): string {
  const a = run.attention;
  const attention = needsPerson(a)
    ? `  ${c.red(`needs attention (${a.level})`)}: ${a.reasons.map((r) => r.code).join(', ')}; \`ckpt status --run ${safe(shellWord(`${run.dialect}/${run.id}`))}\` says why\n`
    : '';
  return `${c.dim(run.dialect)}  ${c.bold(safe(run.id))}  ${safe(run.status)}\n${attention}${formatPlan(run.resume, c)}`;
}
