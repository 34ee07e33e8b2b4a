import { currentTime, describeProblems, needsPerson, type RunSummary, triageOrder } from '@ckpt/core';
import type { Colors } from '../../output/color.js';
import { ago } from './ago.js';
import { clip, pad, safe, toned } from './text.js';

/** The attention column: the first reason's code, `+N` for the others. */
function reasonOf(r: RunSummary): string {
  const [first, ...rest] = r.attention.reasons;
  return first ? `${first.code}${rest.length > 0 ? ` +${rest.length}` : ''}` : '-';
}

/**
 * One line per run, in triage order (core's `compareForTriage`: needs a person, then running, then the rest):
 * attention mark, dialect, id, status, progress, problems, updated-ago, attention reason.
 */
export function formatRunList(runs: readonly RunSummary[], c: Colors, now = currentTime()): string {
  if (runs.length === 0) return 'no runs found\n';
  const rows = triageOrder(runs).map((r) => {
    const id = safe(clip(r.id, 48));
    const problems = describeProblems(r.problems);
    return {
      r,
      dialect: r.dialect,
      id,
      status: safe(clip(r.status, 22)),
      progress: `${r.progress.done}/${r.progress.total}`,
      problems: problems || '-',
      updated: ago(r.updatedAt ?? r.createdAt, now),
      reason: reasonOf(r),
    };
  });
  const w = (k: 'dialect' | 'id' | 'status' | 'progress' | 'problems' | 'updated', title: string) =>
    Math.max(title.length, ...rows.map((x) => x[k].length)) + 2;
  const wd = w('dialect', 'DIALECT');
  const wi = w('id', 'RUN');
  const ws = w('status', 'STATUS');
  const wp = w('progress', 'DONE');
  const wq = w('problems', 'PROBLEMS');
  const wu = w('updated', 'UPDATED');
  const header = c.dim(
    pad('DIALECT', 'DIALECT', wd) +
      pad('RUN', 'RUN', wi) +
      pad('STATUS', 'STATUS', ws) +
      pad('DONE', 'DONE', wp) +
      pad('PROBLEMS', 'PROBLEMS', wq) +
      pad('UPDATED', 'UPDATED', wu) +
      'ATTENTION',
  );
  const lines = rows.map((x) => {
    const mark = needsPerson(x.r.attention) ? c.red('!') : ' ';
    const problems =
      x.r.problems.errors > 0
        ? c.red(x.problems)
        : x.r.problems.warnings > 0
          ? c.yellow(x.problems)
          : c.dim(x.problems);
    return (
      mark +
      ' ' +
      pad(c.dim(x.dialect), x.dialect, wd) +
      pad(c.bold(x.id), x.id, wi) +
      pad(toned(c, x.r.tone, x.status), x.status, ws) +
      pad(x.progress, x.progress, wp) +
      pad(problems, x.problems, wq) +
      pad(c.dim(x.updated), x.updated, wu) +
      (needsPerson(x.r.attention) ? x.reason : c.dim(x.reason))
    );
  });
  const attention = runs.filter((r) => needsPerson(r.attention)).length;
  const footer = c.dim(
    `${runs.length} run${runs.length === 1 ? '' : 's'}${attention > 0 ? `, ${attention} need${attention === 1 ? 's' : ''} attention (!)` : ''}`,
  );
  return `  ${header}\n${lines.join('\n')}\n${footer}\n`;
}
