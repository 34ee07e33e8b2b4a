import { forTerminal, redactSecretsIn, verifyAgentContext } from '@ckpt/core';
import { printJson, printText } from '../../output/print.js';
import { existingDir } from './dir.js';

/** Recomputes stored fingerprints and convergence; exit 1 when any record does not check out. */
export function runVerify(dir: string, opts: { json?: boolean }): void {
  // Findings may quote what a file holds: redacted, and escaped for the terminal before they are laid out.
  const report = redactSecretsIn(verifyAgentContext(existingDir(dir)));
  if (opts.json) printJson(report);
  else {
    const out: string[] = [];
    for (const e of forTerminal(report.entries)) {
      const fp = e.fingerprint ? e.fingerprint.stored.slice(0, 12) : 'unreadable';
      out.push(`${e.ok ? 'ok  ' : 'FAIL'}  ${e.file}  ${e.status ?? '?'}  fingerprint ${fp}\n`);
      for (const f of e.findings) out.push(`      ${f.file}:${f.line}:${f.column} ${f.code} ${f.message}\n`);
    }
    out.push(`${report.checked} records checked, ${report.mismatches} with mismatches\n`);
    printText(out.join(''));
  }
  if (report.mismatches > 0) process.exitCode = 1;
}
