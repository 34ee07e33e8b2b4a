import { forTerminal, type Severity } from '@ckpt/core';
import type { Colors } from '../output/color.js';
import { plural, type Reporter, visibleFindings } from './reporter.js';

const paint = (c: Colors, s: Severity, text: string) =>
  s === 'error' ? c.red(text) : s === 'warning' ? c.yellow(text) : c.blue(text);

/** Grouped per file: `path:line:col  severity  code  message`, then a one-line summary. */
export const textReporter: Reporter = (raw, { colors: c, quiet }) => {
  // File names, codes, messages and hints come from files and arguments: escaped once, before any colour.
  const report = forTerminal(raw);
  const out: string[] = [];
  for (const f of visibleFindings(report, quiet)) {
    out.push(c.underline(f.file));
    for (const x of f.findings) {
      out.push(
        `  ${c.dim(`${x.file}:${x.line}:${x.column}`)}  ${paint(c, x.severity, x.severity.padEnd(7))} ${c.bold(x.code)}  ${x.message}`,
      );
      if (x.hint) out.push(`      ${c.dim(`hint: ${x.hint}`)}`);
    }
    out.push('');
  }
  const s = report.summary;
  const problems = s.errors + s.warnings + s.infos;
  if (quiet && s.errors === 0) return out.join('\n');
  const checked = `${plural(s.files, 'file')} checked${s.skipped > 0 ? `, ${s.skipped} skipped (not checkpoint files)` : ''}`;
  if (problems === 0) out.push(c.green(`✓ ${checked}, no problems`));
  else {
    const parts = [plural(s.errors, 'error'), plural(s.warnings, 'warning')];
    if (s.infos > 0) parts.push(`${s.infos} info`);
    const line = `${s.errors > 0 ? '✖' : '!'} ${parts.join(', ')} in ${plural(countWithFindings(report), 'file')} (${checked})`;
    out.push(s.errors > 0 ? c.red(line) : c.yellow(line));
  }
  return `${out.join('\n')}\n`;
};

function countWithFindings(report: Parameters<Reporter>[0]): number {
  return report.files.filter((f) => f.findings.length > 0).length;
}
