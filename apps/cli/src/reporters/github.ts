import { escapeTerminal, type Finding, redactSecretsIn, type ValidationStream } from '@ckpt/core';
import { joinPieces, plural, type ReportContext, type Reporter } from './reporter.js';

/**
 * Escapes the message of a workflow command (GitHub's toolkit rules: `%`, CR, LF); other control characters are
 * shown as `\x1b` first, so a file's escape sequence never reaches the log viewer as one.
 */
export function escapeData(s: string): string {
  return escapeTerminal(s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

/** Escapes a property value of a workflow command: also `:` and `,`. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const level = (f: Finding) =>
  f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warning' : 'notice';

/** One annotation per finding: `::error file=…,line=…,col=…,title=…::message`. */
export function annotation(f: Finding): string {
  const props = [`file=${escapeProperty(f.file)}`, `line=${f.line}`, `col=${f.column}`];
  if (f.endLine !== undefined) props.push(`endLine=${f.endLine}`);
  if (f.endColumn !== undefined && f.endLine === f.line) props.push(`endColumn=${f.endColumn}`);
  props.push(`title=${escapeProperty(`ckpt ${f.code}`)}`);
  const msg = f.hint ? `${f.message}\n${f.hint}` : f.message;
  return `::${level(f)} ${props.join(',')}::${escapeData(msg)}`;
}

/** One annotation per finding (of errors only with --quiet), then a summary line; a file's as it comes, redacted. */
export function* githubReportPieces(
  report: ValidationStream,
  { quiet }: Pick<ReportContext, 'quiet'>,
): Generator<string> {
  for (const raw of report.files) {
    if (raw.findings.length === 0) continue;
    const f = redactSecretsIn(raw);
    let lines = '';
    for (const x of f.findings) if (!quiet || x.severity === 'error') lines += `${annotation(x)}\n`;
    if (lines !== '') yield lines;
  }
  const s = report.summary;
  yield `ckpt validate: ${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')} in ${plural(s.files, 'file')} (${s.skipped} skipped)\n`;
}

export const githubReporter: Reporter = (report, ctx) => joinPieces(githubReportPieces(report, ctx));

/** The Markdown appended to $GITHUB_STEP_SUMMARY. */
export function stepSummary(raw: Parameters<Reporter>[0]): string {
  const report = redactSecretsIn(raw);
  const s = report.summary;
  const icon = s.errors > 0 ? '❌' : s.warnings > 0 ? '⚠️' : '✅';
  const out = [
    `### ${icon} ckpt validate`,
    '',
    `| files | valid | invalid | skipped | errors | warnings |`,
    `|---:|---:|---:|---:|---:|---:|`,
    `| ${s.files} | ${s.valid} | ${s.invalid} | ${s.skipped} | ${s.errors} | ${s.warnings} |`,
    '',
  ];
  const rows = report.files.flatMap((f) => f.findings).slice(0, 50);
  if (rows.length > 0) {
    const cell = (t: string) => escapeTerminal(t.replace(/\|/g, '\\|').replace(/\n/g, ' '));
    out.push('| file | line | severity | code | message |', '|---|---:|---|---|---|');
    for (const x of rows)
      out.push(`| \`${cell(x.file)}\` | ${x.line} | ${x.severity} | \`${x.code}\` | ${cell(x.message)} |`);
    const total = report.files.reduce((n, f) => n + f.findings.length, 0);
    if (total > rows.length) out.push('', `…and ${total - rows.length} more.`);
    out.push('');
  }
  return `${out.join('\n')}\n`;
}
