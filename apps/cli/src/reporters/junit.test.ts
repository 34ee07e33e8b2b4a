import { describe, expect, it } from 'vitest';
import { colorsFor } from '../output/color.js';
import { junitReporter } from './junit.js';
import { finding, reportOf } from './test-report.js';
import { parseXml, type XmlElement } from './test-xml.js';

const ctx = { colors: colorsFor('never'), quiet: false, toolVersion: '0.0.0' };
const all = (e: XmlElement, name: string): XmlElement[] =>
  e.children.flatMap((c) => (c.name === name ? [c, ...all(c, name)] : all(c, name)));

const report = reportOf({
  '.team/runs/r/events/a.json': [
    finding({ file: '.team/runs/r/events/a.json', line: 3, message: 'status <done> & "more"' }),
    finding({
      file: '.team/runs/r/events/a.json',
      line: 7,
      code: 'schema/required',
      message: 'missing "at"',
    }),
  ],
  '.team/runs/r/run.json': [],
  '.ulpi/runs/x.json': [
    finding({ file: '.ulpi/runs/x.json', severity: 'warning', code: 'parse/bom', line: 1 }),
  ],
});

describe('junitReporter', () => {
  const xml = junitReporter(report, ctx);
  const root = parseXml(xml);

  it('should be well-formed XML with testsuites > testsuite > testcase', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(root.name).toBe('testsuites');
    expect(root.children.map((c) => c.name)).toEqual(['testsuite']);
  });

  it('should hold one testcase per checked file, named by its path', () => {
    const cases = all(root, 'testcase');
    expect(cases.map((c) => c.attrs.name)).toEqual(
      Object.keys(Object.fromEntries(report.files.map((f) => [f.file, 1]))),
    );
    for (const c of cases) {
      expect(c.attrs.classname).toBeTruthy();
      expect(c.attrs.file).toBe(c.attrs.name);
    }
  });

  it('should give counts that agree with the testcases and failures it holds', () => {
    for (const el of [root, root.children[0]!]) {
      expect(Number(el.attrs.tests)).toBe(all(root, 'testcase').length);
      expect(Number(el.attrs.failures)).toBe(all(root, 'failure').length);
      expect(Number(el.attrs.errors)).toBe(0);
    }
  });

  it('should carry file:line in each failure, escaped and read back intact', () => {
    const [failure] = all(root, 'failure');
    expect(failure!.attrs.type).toBe('schema/enum');
    expect(failure!.attrs.message).toBe('2 errors: .team/runs/r/events/a.json:3 status <done> & "more"');
    expect(failure!.text.split('\n')).toEqual([
      '.team/runs/r/events/a.json:3:13 schema/enum status <done> & "more"',
      '.team/runs/r/events/a.json:7:13 schema/required missing "at"',
    ]);
  });

  it('should pass a file with only warnings, keeping them in system-out', () => {
    const c = all(root, 'testcase').find((x) => x.attrs.name === '.ulpi/runs/x.json')!;
    expect(all(c, 'failure')).toHaveLength(0);
    expect(all(c, 'system-out')[0]!.text).toContain('.ulpi/runs/x.json:1:13 warning parse/bom');
  });

  it('should replace characters XML 1.0 cannot hold instead of writing broken XML', () => {
    const bad = junitReporter(
      reportOf({ 'a.json': [finding({ file: 'a.json', message: 'nul \u0000 here' })] }),
      ctx,
    );
    expect(() => parseXml(bad)).not.toThrow();
    expect(bad).not.toContain('\u0000');
  });
});
