import { resolve } from 'node:path';
import { CkptError, forTerminal, type RunFacts, redactSecretsIn, teamStatus } from '@ckpt/core';
import { type ColorMode, type Colors, colorsFor } from '../../output/color.js';
import { printJson, printText } from '../../output/print.js';

function toneColor(c: Colors, tone: string): (s: string) => string {
  return tone === 'ok'
    ? c.green
    : tone === 'error'
      ? c.red
      : tone === 'warning'
        ? c.yellow
        : tone === 'active'
          ? c.cyan
          : (s) => s;
}

function renderRun(v: RunFacts, c: Colors, out: string[]): void {
  for (const u of v.units) {
    out.push(
      `  ${c.bold(u.id)}  [${u.stage}/${u.agent}]  ${toneColor(c, u.tone)(u.status)} (attempt ${u.attempts.at(-1)?.attempt})`,
    );
    for (const a of u.attempts) {
      const when = [a.startedAt, a.endedAt].filter(Boolean).join(' -> ');
      const extra = [
        a.retryOf !== undefined ? `retry of a${a.retryOf}: ${a.reason ?? ''}` : '',
        a.evidence ? `evidence: ${a.evidence}` : '',
        a.next ? `next: ${a.next}` : '',
        a.artifacts && a.artifacts.length > 0 ? `artifacts: ${a.artifacts.join(', ')}` : '',
      ].filter(Boolean);
      out.push(
        `      a${a.attempt} ${toneColor(c, a.tone)(a.status)}  ${when}${extra.length ? `  ${extra.join('; ')}` : ''}`,
      );
    }
  }
}

/** `ckpt team status`: text or `--json`. Returns the exit code. */
export function runTeamStatus(flags: {
  project?: string;
  run?: string;
  json?: boolean;
  color?: ColorMode;
  showSecrets?: boolean;
}): number {
  const found = teamStatus(
    resolve(flags.project ?? process.cwd()),
    flags.run !== undefined ? { run: flags.run } : {},
  );
  const s = flags.showSecrets ? found : redactSecretsIn(found);
  if (flags.run !== undefined && !s.run)
    throw new CkptError('NOT_FOUND', `no team run matches "${flags.run}"`);
  if (flags.json) {
    printJson(s);
    return 0;
  }
  const c = colorsFor(flags.color ?? 'auto');
  const out: string[] = [];
  if (!s.run) {
    out.push('no team run in this project (.team/runs is missing or empty).');
    out.push(
      'a project without runs starts safely: no run, no approvals; existing artifacts are reviewed, not assumed approved.',
    );
    out.push('start one with: ckpt team start-run --profile new --stage research');
    printText(`${out.join('\n')}\n`);
    return 0;
  }
  // Everything below is file-derived text: escaped once here, before it is laid out and coloured.
  const v = forTerminal(s.run);
  const detail = (label: string) => v.details.find((d) => d.label === label)?.value ?? '—';
  const cur = {
    ok: 'named by current',
    missing: 'current is missing: newest run',
    dangling: 'current is dangling: newest run',
    'not-newest': 'named by current (a newer run exists)',
    'no-runs': '',
  }[s.current.state];
  out.push(`${c.bold(`run ${v.id}`)}  (${flags.run !== undefined ? 'asked for' : cur})`);
  out.push(
    `  profile ${detail('profile')} · started at stage ${detail('started at stage')} · created ${v.createdAt ?? '—'} · status ${toneColor(c, v.tone)(v.status)}`,
  );
  out.push(
    `  stages: ${v.phases.map((p) => `${p.id} ${toneColor(c, p.tone)(p.status)}${p.current ? ' *' : ''}`).join(', ') || '—'}`,
  );
  const others = forTerminal(s.runs)
    .filter((r) => r.id !== v.id)
    .map((r) => r.id);
  if (others.length > 0) out.push(`  other runs: ${others.join(', ')} (use --run)`);
  out.push('', c.bold('Tasks'));
  if (v.units.length === 0) out.push('  (none yet)');
  renderRun(v, c, out);
  out.push('', c.bold('Approvals'));
  if (v.approvals.length === 0) out.push('  (none: an existing artifact is not an approval)');
  for (const a of v.approvals)
    out.push(
      `  ${a.stage}  ${a.artifact}  by ${a.by} at ${a.approvedAt}  ${a.state === 'valid' ? c.green('valid') : c.yellow(a.state)}${a.note ? `  "${a.note}"` : ''}`,
    );
  const p = forTerminal(s.resume!);
  out.push('', c.bold(`Resume plan: ${v.resume.summary}`));
  for (const t of p.completed) out.push(`  ${c.green('completed')}  ${t.task} a${t.attempt}: do not rerun`);
  for (const t of p.running)
    out.push(
      `  ${c.cyan('running')}    ${t.task} a${t.attempt}: reconcile first: ${t.reason.replace(/^running, uncertain: /, '')}`,
    );
  for (const t of p.retry) out.push(`  ${c.yellow('retry')}      ${t.task} a${t.attempt}: ${t.reason}`);
  for (const t of p.conflicts)
    out.push(`  ${c.red('conflict')}   ${t.task} a${t.attempt}: ${t.reason.replace(/^conflict: /, '')}`);
  for (const g of p.awaitingApproval)
    out.push(
      `  ${c.yellow('gate')}       ${g.stage} (${g.tasks.join(', ')}): awaiting approval: ${g.reason}`,
    );
  if (v.findings.length > 0) {
    out.push('', c.bold(`Findings (${v.findings.length})`));
    for (const f of v.findings) {
      const sev =
        f.severity === 'error'
          ? c.red(f.severity)
          : f.severity === 'warning'
            ? c.yellow(f.severity)
            : f.severity;
      out.push(`  ${f.file}:${f.line}:${f.column} ${sev} ${f.code} ${f.message}`);
    }
  }
  printText(`${out.join('\n')}\n`);
  return 0;
}
