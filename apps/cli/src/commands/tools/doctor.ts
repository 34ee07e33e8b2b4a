import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { type DoctorReport, forTerminal, needsPerson, scanProject } from '@ckpt/core';
import { printJson, printText } from '../../output/print.js';
import { InputError, UsageError, unreadable } from '../../usage-error.js';

export interface DoctorFlags {
  readonly json?: boolean;
  readonly staleAfter?: string;
}

function render(r: DoctorReport): string {
  const out = ['ckpt doctor', ''];
  out.push(`${r.node.ok ? '✓' : '✖'} Node ${r.node.version} (ckpt needs ${r.node.required})`, '');
  out.push(`Runs under ${r.dir}:`);
  for (const d of r.dialects) {
    if (d.roots.length === 0) {
      out.push(`  ${d.dialect}: none found`);
      continue;
    }
    out.push(`  ${d.dialect} (${d.files} checkpoint file${d.files === 1 ? '' : 's'}):`);
    for (const root of d.roots)
      out.push(
        `    ${root.root}${root.runs === null ? '' : `  ${root.runs} run${root.runs === 1 ? '' : 's'}`}`,
      );
  }
  const attention = r.dialects.flatMap((d) =>
    d.attention.filter(needsPerson).map((a) => ({ dialect: d.dialect, ...a })),
  );
  out.push('');
  if (attention.length === 0) out.push('✓ No run needs attention.');
  else {
    out.push(
      `${attention.length} run${attention.length === 1 ? ' needs' : 's need'} attention (as \`ckpt status\` shows):`,
    );
    for (const a of attention) {
      out.push(`  ! ${a.dialect}/${a.id} (${a.level})`);
      for (const reason of a.reasons.filter((x) => x.level !== 'info'))
        out.push(
          `    ${reason.code}: ${reason.message}`,
          `    → ${reason.hint}${reason.command ? `: ${reason.command}` : ''}`,
        );
    }
  }
  out.push('');
  if (r.problems.length === 0) out.push('✓ No unreadable files, stale locks or leftover temp files.');
  else {
    out.push(`${r.problems.length} thing${r.problems.length === 1 ? '' : 's'} to look at:`);
    for (const p of r.problems) {
      out.push(`  ! ${p.kind}${p.path ? ` ${p.path}` : ''}: ${p.message}`);
      out.push(`    → ${p.fix}`);
    }
  }
  return `${out.join('\n')}\n`;
}

/** `ckpt doctor [dir]`: exit 0 when nothing needs attention, 1 when a problem or a run's attention does. */
export function runDoctor(dir: string, flags: DoctorFlags): number {
  const minutes = Number(flags.staleAfter ?? '60');
  if (!Number.isFinite(minutes) || minutes <= 0)
    throw new UsageError(`--stale-after must be a positive number of minutes, got "${flags.staleAfter}"`);
  const abs = resolve(dir);
  try {
    if (!statSync(abs).isDirectory()) throw new InputError(`${dir} is not a directory`);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw unreadable(dir, e);
  }
  const report = scanProject(abs, { staleMs: minutes * 60_000 });
  // Paths and messages are escaped once before layout; the fixes are commands whose arguments core quoted.
  if (flags.json) printJson({ formatVersion: 2, ...report });
  else printText(render(forTerminal(report)));
  const runsNeed = report.dialects.some((d) => d.attention.some(needsPerson));
  return report.problems.length > 0 || runsNeed ? 1 : 0;
}
