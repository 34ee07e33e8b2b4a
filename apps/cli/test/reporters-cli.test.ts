import { describe, expect, it } from 'vitest';
import { expectValidSarif } from '../src/reporters/test-sarif.js';
import { parseXml } from '../src/reporters/test-xml.js';
import { repoRoot, runCli } from './run-cli.js';

describe('ckpt validate reporters on the fixtures', () => {
  it('should print SARIF that validates against the SARIF 2.1.0 schema', () => {
    const r = runCli(['validate', 'test-fixtures', '--reporter', 'sarif'], { cwd: repoRoot });
    expect(r.code).toBe(1);
    const log = expectValidSarif(r.stdout);
    expect(log.runs[0].results.length).toBeGreaterThan(50);
  });

  it('should print well-formed JUnit with one testcase per checked file', () => {
    const r = runCli(['validate', 'test-fixtures/team', '--reporter', 'junit'], { cwd: repoRoot });
    const json = JSON.parse(
      runCli(['validate', 'test-fixtures/team', '--reporter', 'json'], { cwd: repoRoot }).stdout,
    );
    const root = parseXml(r.stdout);
    const cases = root.children[0]!.children.filter((c) => c.name === 'testcase');
    expect(cases.map((c) => c.attrs.name)).toEqual(json.files.map((f: { file: string }) => f.file));
    expect(Number(root.attrs.failures)).toBe(json.summary.invalid);
  });
});
