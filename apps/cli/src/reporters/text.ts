import {
  type FileResult,
  forTerminal,
  redactSecretsIn,
  type Severity,
  type ValidationStream,
} from '@ckpt/core';
import type { Colors } from '../output/color.js';
import { joinPieces, plural, type ReportContext, type Reporter } from './reporter.js';

const paint = (c: Colors, s: Severity, text: string) =>
  s === 'error' ? c.red(text) : s === 'warning' ? c.yellow(text) : c.blue(text);

/**
 * Grouped per file: `path:line:col  severity  code  message`, then a one-line summary; in pieces, a file's as it
 * comes (each file redacted, then its names, codes, messages and hints escaped once, before any colour).
 */
export function* textReportPieces(
  report: ValidationStream,
  { colors: c, quiet }: Pick<ReportContext, 'colors' | 'quiet'>,
): Generator<string> {
  let withFindings = 0;
  for (const raw of report.files) {
    if (raw.findings.length === 0) continue;
    withFindings++;
    const f: FileResult = forTerminal(redactSecretsIn(raw));
    const shown = quiet ? f.findings.filter((x) => x.severity === 'error') : f.findings;
    if (shown.length === 0) continue;
    const out = [c.underline(f.file)];
    for (const x of shown) {
      out.push(
        `  ${c.dim(`${x.file}:${x.line}:${x.column}`)}  ${paint(c, x.severity, x.severity.padEnd(7))} ${c.bold(x.code)}  ${x.message}`,
      );
      if (x.hint) out.push(`      ${c.dim(`hint: ${x.hint}`)}`);
    }
    yield `${out.join('\n')}\n\n`;
  }
  const s = report.summary;
  const problems = s.errors + s.warnings + s.infos;
  if (quiet && s.errors === 0) return;
  const checked = `${plural(s.files, 'file')} checked${s.skipped > 0 ? `, ${s.skipped} skipped (not checkpoint files)` : ''}`;
  if (problems === 0) yield `${c.green(`✓ ${checked}, no problems`)}\n`;
  else {
    const parts = [plural(s.errors, 'error'), plural(s.warnings, 'warning')];
    if (s.infos > 0) parts.push(`${s.infos} info`);
    const line = `${s.errors > 0 ? '✖' : '!'} ${parts.join(', ')} in ${plural(withFindings, 'file')} (${checked})`;
    yield `${s.errors > 0 ? c.red(line) : c.yellow(line)}\n`;
  }
}

export const textReporter: Reporter = (report, ctx) => joinPieces(textReportPieces(report, ctx));
