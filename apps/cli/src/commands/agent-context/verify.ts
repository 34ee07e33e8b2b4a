import { verifyAgentContext } from '@ckpt/core';
import { existingDir } from './dir.js';

/** Recomputes stored fingerprints and convergence; exit 1 when any record does not check out. */
export function runVerify(dir: string, opts: { json?: boolean }): void {
  const report = verifyAgentContext(existingDir(dir));
  if (opts.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    for (const e of report.entries) {
      const fp = e.fingerprint ? e.fingerprint.stored.slice(0, 12) : 'unreadable';
      process.stdout.write(`${e.ok ? 'ok  ' : 'FAIL'}  ${e.file}  ${e.status ?? '?'}  fingerprint ${fp}\n`);
      for (const f of e.findings)
        process.stdout.write(`      ${f.file}:${f.line}:${f.column} ${f.code} ${f.message}\n`);
    }
    process.stdout.write(`${report.checked} records checked, ${report.mismatches} with mismatches\n`);
  }
  if (report.mismatches > 0) process.exitCode = 1;
}
