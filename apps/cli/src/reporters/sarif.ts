import { codeInfo, escapeTerminal, type Finding, stringifyJson } from '@ckpt/core';
import type { Reporter } from './reporter.js';

const level = (f: Finding) =>
  f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warning' : 'note';

// Each segment is percent-encoded on its own: encodeURI would leave `#` and `?`, which end a URI's path.
const encodePath = (p: string) => p.split('/').map(encodeURIComponent).join('/');

/** The file: URI of an absolute path (POSIX or a Windows drive path). */
function fileUri(abs: string): string {
  const posix = abs.replace(/\\/g, '/');
  return /^[A-Za-z]:\//.test(posix)
    ? `file:///${posix.slice(0, 2)}${encodePath(posix.slice(2))}`
    : `file://${encodePath(posix)}`;
}

/** A relative path resolves against %SRCROOT% (the working directory); an absolute one is a file: URI. */
function artifactLocation(file: string): { uri: string; uriBaseId?: string } {
  const posix = file.replace(/\\/g, '/');
  if (posix.startsWith('/') || /^[A-Za-z]:\//.test(posix)) return { uri: fileUri(posix) };
  return { uri: encodePath(posix), uriBaseId: '%SRCROOT%' };
}

/** SARIF 2.1.0: one run, a rule per code met, a result per finding with its region. */
export const sarifReporter: Reporter = (report, { toolVersion }) => {
  const findings = report.files.flatMap((f) => f.findings);
  const ruleIds = [...new Set(findings.map((f) => f.code))].sort();
  const rules = ruleIds.map((id) => {
    const info = codeInfo(id);
    return {
      id,
      name: id.replace(/[/-](.)/g, (_, c: string) => c.toUpperCase()),
      shortDescription: { text: info?.title ?? id },
      fullDescription: { text: info?.explanation ?? info?.title ?? id },
      defaultConfiguration: { level: info ? (info.severity === 'info' ? 'note' : info.severity) : 'error' },
    };
  });
  const results = findings.map((f) => ({
    ruleId: f.code,
    ruleIndex: ruleIds.indexOf(f.code),
    level: level(f),
    message: { text: escapeTerminal(f.hint ? `${f.message} (${f.hint})` : f.message) },
    locations: [
      {
        physicalLocation: {
          artifactLocation: artifactLocation(f.file),
          region: {
            startLine: f.line,
            startColumn: f.column,
            ...(f.endLine !== undefined ? { endLine: f.endLine } : {}),
            ...(f.endColumn !== undefined ? { endColumn: f.endColumn } : {}),
          },
        },
        ...(f.pointer ? { logicalLocations: [{ fullyQualifiedName: f.pointer, kind: 'member' }] } : {}),
      },
    ],
  }));
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'ckpt', version: toolVersion, informationUri: 'https://ckpt.dev', rules } },
        originalUriBaseIds: { '%SRCROOT%': { uri: `${fileUri(process.cwd())}/` } },
        results,
      },
    ],
  };
  return `${stringifyJson(sarif)}\n`;
};
