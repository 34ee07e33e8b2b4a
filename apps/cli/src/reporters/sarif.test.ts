import { describe, expect, it } from 'vitest';
import { colorsFor } from '../output/color.js';
import { sarifReporter } from './sarif.js';
import { finding, reportOf } from './test-report.js';
import { expectValidSarif, sarifErrors } from './test-sarif.js';

const ctx = { colors: colorsFor('never'), quiet: false, toolVersion: '1.2.3' };

describe('sarifReporter', () => {
  it('should write a log that validates against the SARIF 2.1.0 schema', () => {
    const log = expectValidSarif(
      sarifReporter(
        reportOf({
          'a b/#1?.json': [finding({ file: 'a b/#1?.json', endLine: 9, endColumn: 20, hint: 'fix it' })],
          '/abs/path/x.json': [finding({ file: '/abs/path/x.json', severity: 'info', code: 'parse/bom' })],
          'c.json': [
            finding({ file: 'c.json', severity: 'warning', code: 'team/not-a-known-code', pointer: '' }),
          ],
        }),
        ctx,
      ),
    );
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0].tool.driver).toMatchObject({ name: 'ckpt', version: '1.2.3' });
  });

  it('should point each result at its rule, file and region', () => {
    const log = JSON.parse(
      sarifReporter(
        reportOf({ 'a b/#1?.json': [finding({ file: 'a b/#1?.json', line: 4, column: 2 })] }),
        ctx,
      ),
    );
    const [result] = log.runs[0].results;
    expect(log.runs[0].tool.driver.rules[result.ruleIndex].id).toBe(result.ruleId);
    expect(result.level).toBe('error');
    const loc = result.locations[0].physicalLocation;
    expect(loc.artifactLocation).toEqual({ uri: 'a%20b/%231%3F.json', uriBaseId: '%SRCROOT%' });
    expect(loc.region).toMatchObject({ startLine: 4, startColumn: 2 });
    expect(result.locations[0].logicalLocations[0].fullyQualifiedName).toBe('/status');
  });

  it('should give an absolute path as a file: URI without a base', () => {
    const log = JSON.parse(
      sarifReporter(reportOf({ '/abs/p q.json': [finding({ file: '/abs/p q.json' })] }), ctx),
    );
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({
      uri: 'file:///abs/p%20q.json',
    });
  });

  it('should take rule texts and default levels from the code table', () => {
    const log = JSON.parse(
      sarifReporter(
        reportOf({ 'a.json': [finding({ file: 'a.json', code: 'parse/bom', severity: 'warning' })] }),
        ctx,
      ),
    );
    expect(log.runs[0].tool.driver.rules[0]).toMatchObject({
      id: 'parse/bom',
      shortDescription: { text: 'The file starts with a byte-order mark.' },
      defaultConfiguration: { level: 'warning' },
    });
  });

  it('should be checked by a schema that rejects what SARIF forbids', () => {
    const log = JSON.parse(sarifReporter(reportOf({ 'a.json': [finding({ file: 'a.json' })] }), ctx));
    log.runs[0].results[0].level = 'fatal';
    log.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0;
    expect(sarifErrors(log).map((e) => e.keyword)).toEqual(expect.arrayContaining(['enum', 'minimum']));
  });
});
