import { type Finding, redactSecretsIn, stringifyJson, type ValidationReport } from '@ckpt/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { colorsFor } from '../output/color.js';
import { jsonReporter, jsonReportPieces } from './json.js';
import { finding, reportOf } from './test-report.js';

const ctx = { colors: colorsFor('never'), quiet: false, toolVersion: '1.2.3' };

/** The report as the JSON reporter wrote it before it was streamed: the whole document, redacted, at once. */
function wholeDocument(raw: ValidationReport, toolVersion: string): string {
  const report = redactSecretsIn(raw);
  return `${stringifyJson(
    {
      formatVersion: report.formatVersion,
      tool: { name: 'ckpt', version: toolVersion },
      files: report.files.map((f) => ({
        file: f.file,
        kind: f.kind ?? null,
        valid: !f.findings.some((x) => x.severity === 'error'),
        findings: f.findings,
      })),
      findings: report.files.flatMap((f) => f.findings),
      summary: report.summary,
    },
    2,
  )}\n`;
}

const SECRET = 'token=ghp_abcdefghijklmnopqrstuvwxyz0123';

describe('jsonReporter', () => {
  it('should write the document whole-report redaction and stringifyJson wrote, piece by piece', () => {
    const report = reportOf({
      'a.json': [finding({ file: 'a.json', message: `holds ${SECRET}`, hint: 'line\nfeed \u009b2J \u202e' })],
      'b\u001b[31m.json': [],
      'c.json': [finding({ file: 'c.json', severity: 'warning' }), finding({ file: 'c.json', pointer: '' })],
    });
    const out = jsonReporter(report, ctx);
    expect(out).toBe(wholeDocument(report, '1.2.3'));
    expect(out).not.toContain('ghp_abc');
    expect(out).toContain('[REDACTED:');
    expect([...jsonReportPieces(report, ctx)].length).toBeGreaterThan(5);
  });

  it('should write reports of more files than one batch as the whole document does', () => {
    const files: Record<string, ReturnType<typeof finding>[]> = {};
    for (let i = 0; i < 1300; i++) {
      const file = `f${String(i).padStart(4, '0')}.json`;
      files[file] = i % 3 === 0 ? [finding({ file, message: i % 9 === 0 ? SECRET : 'm\nn' })] : [];
    }
    const report = reportOf(files);
    expect(jsonReporter(report, ctx)).toBe(wholeDocument(report, '1.2.3'));
  });

  it('should write empty lists as the whole document does', () => {
    const none = reportOf({});
    expect(jsonReporter(none, ctx)).toBe(wholeDocument(none, '1.2.3'));
    const clean = reportOf({ 'x.json': [] });
    expect(jsonReporter(clean, ctx)).toBe(wholeDocument(clean, '1.2.3'));
    const noKind = { ...clean, files: [{ file: 'x.json', kind: undefined, findings: [] }] };
    expect(jsonReporter(noKind, ctx)).toBe(wholeDocument(noKind, '1.2.3'));
  });

  it('should write files without findings (any path and kind) as the whole document does', () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom(
        SECRET,
        'pwd=hunter22',
        '\u0085x',
        'a\u202eb\u2028c\u007f',
        'x"\\\n\u0000y',
        'team/task-event',
      ),
    );
    /** An entry that is not a plain object: redaction leaves it as it is. */
    class Entry {
      constructor(
        readonly file: string,
        readonly kind: string | undefined,
        readonly findings: readonly Finding[],
      ) {}
    }
    const entry = fc.record({
      file: text,
      kind: fc.option(text, { nil: undefined }),
      plain: fc.boolean(),
      findings: fc.nat(6),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 150 }), (entries) => {
        const files = entries.map(({ file, kind, plain, findings }) => {
          const list = findings === 0 ? [finding({ file, message: kind ?? 'none' })] : [];
          return plain ? { file, kind, findings: list } : new Entry(file, kind, list);
        });
        const report = { ...reportOf({}), files };
        expect(jsonReporter(report, ctx)).toBe(wholeDocument(report, '1.2.3'));
      }),
      { numRuns: 300 },
    );
  });

  it('should always equal the whole-document output', () => {
    const text = fc.oneof(
      fc.string(),
      fc.constantFrom(SECRET, 'pwd=hunter22', '\u0085x', 'Bearer abcdefghijklmnopqrstuvwxyz'),
    );
    const aFinding = fc.record({
      message: text,
      hint: fc.option(text, { nil: undefined }),
      severity: fc.constantFrom('error', 'warning', 'info') as fc.Arbitrary<Finding['severity']>,
      pointer: text,
    });
    fc.assert(
      fc.property(
        fc.dictionary(text, fc.array(aFinding, { maxLength: 3 }), { maxKeys: 5 }),
        text,
        (files, version) => {
          const report = reportOf(
            Object.fromEntries(
              Object.entries(files).map(([file, list]) => [
                file,
                list.map(({ hint, ...rest }) =>
                  finding({ file, ...rest, ...(hint !== undefined ? { hint } : {}) }),
                ),
              ]),
            ),
          );
          expect(jsonReporter(report, { ...ctx, toolVersion: version })).toBe(wholeDocument(report, version));
        },
      ),
    );
  });
});
