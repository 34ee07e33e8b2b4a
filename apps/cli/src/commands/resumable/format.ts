import { RESUMABLE_WINDOW_TITLES, type ResumableStatus } from '@ckpt/core';

/** The text of `ckpt resumable status` for one run root. */
export function formatStatus(r: ResumableStatus): string {
  const v = r.view;
  const d = r.resume;
  const lines = [`${v.id}  [${v.status}]  ${v.root}`];
  for (const det of v.details) lines.push(`  ${det.label}: ${det.value}`);
  lines.push('  stages:');
  for (const u of v.units) {
    const checks = (u.checks ?? []).map((c) => `${c.done ? '✓' : '·'} ${c.id}`).join('  ');
    lines.push(`    ${u.id.padEnd(4)} ${u.status.padEnd(11)} ${checks}`);
  }
  if (d.stops.length > 0) {
    lines.push('  STOP:');
    for (const s of d.stops) lines.push(`    - ${s}`);
  }
  const others = v.findings.filter((f) => !d.stops.some((s) => s.startsWith(`${f.code}: `)));
  if (others.length > 0) {
    lines.push('  findings:');
    for (const f of others)
      lines.push(`    ${f.severity.padEnd(7)} ${f.code}  ${f.file}:${f.line}  ${f.message}`);
  }
  lines.push(`  resume: ${v.resume.summary}`);
  if (d.stops.length === 0 && d.window !== 'complete')
    lines.push(`  window: ${RESUMABLE_WINDOW_TITLES[d.window]}; next: ${d.stage ?? 'finalize'}`);
  if (d.observe.length > 0) {
    lines.push('  observe before going on:');
    for (const o of d.observe)
      lines.push(`    - ${o.what}: ${o.command ? `\`${o.command}\` → ` : ''}${o.expect}`);
  }
  return `${lines.join('\n')}\n`;
}
