import { describe, expect, it } from 'vitest';
import { colorsFor } from '../output/color.js';
import { annotation, escapeData, escapeProperty, githubReporter, stepSummary } from './github.js';
import { finding, reportOf } from './test-report.js';

const ctx = { colors: colorsFor('never'), quiet: false, toolVersion: '0.0.0' };

/** Reverses GitHub's workflow-command escaping, as the runner does. */
const unescapeCommand = (s: string) =>
  s
    .replace(/%2C/g, ',')
    .replace(/%3A/g, ':')
    .replace(/%0A/g, '\n')
    .replace(/%0D/g, '\r')
    .replace(/%25/g, '%');

/** Splits `::level props::message` the way the runner does: properties end at the first `::`. */
function parse(line: string) {
  const m = /^::(\w+) (.*?)::(.*)$/.exec(line);
  if (!m) throw new Error(`not a workflow command: ${line}`);
  const props = Object.fromEntries(
    m[2]!.split(',').map((p) => [p.slice(0, p.indexOf('=')), unescapeCommand(p.slice(p.indexOf('=') + 1))]),
  );
  return { level: m[1], props, message: unescapeCommand(m[3]!) };
}

describe('annotation', () => {
  it('should escape commas in the file property so they do not start a new property', () => {
    const line = annotation(finding({ file: 'runs/a,line=99.json', message: 'a, b' }));
    expect(line).toContain('file=runs/a%2Cline=99.json,');
    const p = parse(line);
    expect(p.props.file).toBe('runs/a,line=99.json');
    expect(p.props.line).toBe('9');
    expect(p.message).toBe('a, b');
  });

  it('should escape colons in properties so `::` cannot end the properties early', () => {
    const line = annotation(finding({ file: 'C::/runs/x.json', message: 'expected: one of a: b' }));
    expect(line).toContain('file=C%3A%3A/runs/x.json');
    const p = parse(line);
    expect(p.props.file).toBe('C::/runs/x.json');
    expect(p.props.title).toBe('ckpt schema/enum');
    expect(p.message).toBe('expected: one of a: b');
  });

  it('should escape newlines in the message and properties so one finding stays one command', () => {
    const line = annotation(
      finding({ file: 'a\nb.json', message: 'first\nsecond\r\nthird', hint: 'do this' }),
    );
    expect(line.split('\n')).toHaveLength(1);
    const p = parse(line);
    expect(p.props.file).toBe('a\nb.json');
    expect(p.message).toBe('first\nsecond\r\nthird\ndo this');
  });

  it('should escape percent signs first, so text that looks escaped survives', () => {
    expect(escapeData('100% done %0A')).toBe('100%25 done %250A');
    expect(escapeProperty('50%,x')).toBe('50%25%2Cx');
    const p = parse(annotation(finding({ file: 'runs/%2C.json', message: 'ratio 5%3A' })));
    expect(p.props.file).toBe('runs/%2C.json');
    expect(p.message).toBe('ratio 5%3A');
  });

  it('should map severities to error, warning and notice with line, col and end positions', () => {
    const w = parse(annotation(finding({ file: 'a.json', severity: 'warning', endLine: 9, endColumn: 20 })));
    expect(w.level).toBe('warning');
    expect(w.props).toMatchObject({ line: '9', col: '13', endLine: '9', endColumn: '20' });
    expect(parse(annotation(finding({ file: 'a.json', severity: 'info' }))).level).toBe('notice');
  });
});

describe('githubReporter', () => {
  it('should print one annotation per finding, then a summary line', () => {
    const out = githubReporter(
      reportOf({
        'a.json': [finding({ file: 'a.json' })],
        'b.json': [],
        'c.json': [finding({ file: 'c.json', severity: 'warning' })],
      }),
      ctx,
    );
    const lines = out.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('::'))).toHaveLength(2);
    expect(lines.at(-1)).toBe('ckpt validate: 1 error, 1 warning in 3 files (0 skipped)');
  });

  it('should leave out warnings with --quiet', () => {
    const out = githubReporter(reportOf({ 'c.json': [finding({ file: 'c.json', severity: 'warning' })] }), {
      ...ctx,
      quiet: true,
    });
    expect(out).not.toContain('::warning');
  });
});

describe('stepSummary', () => {
  it('should escape pipes and newlines in table cells', () => {
    const md = stepSummary(reportOf({ 'a|b.json': [finding({ file: 'a|b.json', message: 'x | y\nz' })] }));
    expect(md).toContain('| `a\\|b.json` | 9 | error | `schema/enum` | x \\| y z |');
    expect(md).toContain('### ❌ ckpt validate');
  });
});
