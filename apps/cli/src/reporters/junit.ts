import { forTerminal } from '@ckpt/core';
import { plural, type Reporter } from './reporter.js';

/** Escapes text for XML attributes and content (also strips characters XML 1.0 cannot hold). */
export function xmlEscape(s: string): string {
  return s
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** JUnit XML: one testcase per checked file; a failure per file with errors, each line `file:line:col code message`. */
export const junitReporter: Reporter = (raw) => {
  // CI pages and terminals show these texts: control characters of file names and messages as `\x1b`, not sent.
  const report = forTerminal(raw);
  const s = report.summary;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="ckpt validate" tests="${s.files}" failures="${s.invalid}" errors="0">`,
    `  <testsuite name="ckpt validate" tests="${s.files}" failures="${s.invalid}" errors="0" skipped="0">`,
  ];
  for (const f of report.files) {
    const attrs = `classname="${xmlEscape(f.kind ?? 'unknown')}" name="${xmlEscape(f.file)}" file="${xmlEscape(f.file)}"`;
    const errors = f.findings.filter((x) => x.severity === 'error');
    const others = f.findings.filter((x) => x.severity !== 'error');
    if (errors.length === 0 && others.length === 0) {
      out.push(`    <testcase ${attrs}/>`);
      continue;
    }
    out.push(`    <testcase ${attrs}>`);
    if (errors.length > 0) {
      const first = errors[0]!;
      const body = errors.map((x) => `${x.file}:${x.line}:${x.column} ${x.code} ${x.message}`).join('\n');
      out.push(
        `      <failure message="${xmlEscape(`${plural(errors.length, 'error')}: ${first.file}:${first.line} ${first.message}`)}" type="${xmlEscape(first.code)}">${xmlEscape(body)}</failure>`,
      );
    }
    if (others.length > 0) {
      const body = others
        .map((x) => `${x.file}:${x.line}:${x.column} ${x.severity} ${x.code} ${x.message}`)
        .join('\n');
      out.push(`      <system-out>${xmlEscape(body)}</system-out>`);
    }
    out.push('    </testcase>');
  }
  out.push('  </testsuite>', '</testsuites>');
  return `${out.join('\n')}\n`;
};
