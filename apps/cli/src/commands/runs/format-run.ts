import {
  currentTime,
  describeProblems,
  escapeTerminalLines,
  needsPerson,
  problemCounts,
  type RunView,
  type UnitView,
} from '@ckpt/core';
import type { Colors } from '../../output/color.js';
import { ago, duration } from './ago.js';
import { formatPlan } from './format-resume.js';
import { clip, pad, safe, toned } from './text.js';

function section(c: Colors, title: string, count?: number): string {
  return `\n${c.bold(title)}${count !== undefined ? c.dim(` (${count})`) : ''}\n`;
}

function unitLine(c: Colors, u: UnitView, wid: number, wst: number): string {
  const status = safe(u.status);
  const tries =
    u.attempts.length > 1
      ? c.yellow(`${u.attempts.length} attempts`)
      : u.attempts.length === 1
        ? '1 attempt'
        : '';
  const extra = [
    tries,
    u.durationMs !== undefined ? duration(u.durationMs) : '',
    u.dependsOn.length > 0 ? c.dim(`after ${safe(clip(u.dependsOn.join(', '), 40))}`) : '',
    u.checks ? c.dim(`${u.checks.filter((k) => k.done).length}/${u.checks.length} checks`) : '',
    u.note ? c.dim(safe(clip(u.note, 60))) : '',
  ].filter(Boolean);
  return `  ${pad(toned(c, u.tone, status), status, wst)}${pad(safe(u.id), safe(u.id), wid)}${extra.join('  ')}`;
}

/** The detailed text of one run: header, details, phases, units, approvals, findings, resume summary. */
export function formatRun(run: RunView, c: Colors, now = currentTime(), from?: string): string {
  const out: string[] = [];
  const problems = describeProblems(problemCounts(run.findings));
  out.push(
    `${c.dim(run.dialect)}  ${c.bold(safe(run.id))}${run.title !== run.id ? `  ${safe(run.title)}` : ''}\n`,
  );
  out.push(
    `${toned(c, run.tone, safe(run.status))}${needsPerson(run.attention) ? c.red('  needs attention') : ''}  ` +
      `${run.progress.done}/${run.progress.total} done` +
      Object.entries(run.counts)
        .map(([k, v]) => c.dim(`  ${safe(k)} ${v}`))
        .join('') +
      (problems
        ? `  ${run.findings.some((f) => f.severity === 'error') ? c.red(problems) : c.yellow(problems)}`
        : '') +
      '\n',
  );
  const times = [
    run.createdAt ? `created ${run.createdAt}` : '',
    run.updatedAt ? `updated ${run.updatedAt} (${ago(run.updatedAt, now)})` : '',
    run.finishedAt ? `finished ${run.finishedAt}` : '',
  ].filter(Boolean);
  out.push(c.dim(`${times.join('  ')}\nroot ${safe(run.root)}\n`));
  if (run.attention.reasons.length > 0) {
    out.push(section(c, 'Attention', run.attention.reasons.length));
    if (from) out.push(c.dim(`  (run the commands in ${safe(from)})\n`));
    for (const r of run.attention.reasons) {
      const level = r.level === 'info' ? c.dim(r.level) : c.red(r.level);
      out.push(`  ${pad(level, r.level, 9)}${r.code}  ${safe(r.message)}\n`);
      out.push(
        c.dim(`           ${safe(r.hint)}${r.command ? `: ${escapeTerminalLines(r.command)}` : ''}\n`),
      );
    }
  }
  if (run.details.length > 0) {
    const w = Math.max(...run.details.map((d) => d.label.length)) + 2;
    out.push(section(c, 'Details'));
    for (const d of run.details)
      out.push(`  ${pad(c.dim(safe(d.label)), safe(d.label), w)}${safe(d.value)}\n`);
  }
  if (run.phases.length > 0) {
    out.push(section(c, 'Phases', run.phases.length));
    for (const p of run.phases)
      out.push(
        `  ${p.current ? c.bold('▸') : ' '} ${pad(toned(c, p.tone, safe(p.status)), safe(p.status), 14)}${safe(p.id)}${p.note ? c.dim(`  ${safe(clip(p.note, 60))}`) : ''}\n`,
      );
  }
  if (run.units.length > 0) {
    const wid = Math.min(48, Math.max(...run.units.map((u) => u.id.length))) + 2;
    const wst = Math.max(...run.units.map((u) => u.status.length)) + 2;
    out.push(section(c, 'Units', run.units.length));
    for (const u of run.units) out.push(`${unitLine(c, u, wid, wst)}\n`);
  }
  if (run.approvals.length > 0) {
    out.push(section(c, 'Approvals', run.approvals.length));
    for (const a of run.approvals) {
      const state = a.state === 'valid' ? c.green(a.state) : c.yellow(a.state);
      out.push(
        `  ${pad(state, a.state, 26)}${safe(a.stage)}  ${safe(a.artifact)}  ${c.dim(`by ${safe(a.by)} at ${a.approvedAt}`)}\n`,
      );
    }
  }
  if (run.findings.length > 0) {
    out.push(section(c, 'Findings', run.findings.length));
    for (const f of run.findings) {
      const sev =
        f.severity === 'error'
          ? c.red(f.severity)
          : f.severity === 'warning'
            ? c.yellow(f.severity)
            : c.dim(f.severity);
      out.push(
        `  ${pad(sev, f.severity, 9)}${safe(f.file)}:${f.line}:${f.column}  ${safe(f.message)}  ${c.dim(f.code)}\n`,
      );
    }
  }
  out.push(section(c, 'Resume'));
  out.push(formatPlan(run.resume, c, 10));
  return out.join('');
}
