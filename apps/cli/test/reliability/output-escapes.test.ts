import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckpt, project, RAW_CONTROL, sampleUlpi } from './output-cli.js';

// Escape sequences in a file name and in a unit id must be shown (`\x1b`), never sent to the terminal: through
// every reporter of `validate`, every view of `status`/`resume`, `doctor`, `ulpi get` and an error message.

const ESC_ID = 'evil\u001b]0;PWNED\u0007\u202e';
const BAD_FILE = '.ulpi/runs/bad\u001b[31mred\u009b2J.json';
const RUN = 'lint-sweep-20260812T140210Z';

let p: ReturnType<typeof project>;
beforeAll(() => {
  p = project({
    [`.ulpi/runs/${RUN}.json`]: sampleUlpi((doc) => {
      doc.units[ESC_ID] = { status: 'pending', dependsOn: [], note: 'clears \u001b[2J the screen\nand lies' };
      doc.task = 'task \u001b[1A up';
    }),
    [BAD_FILE]: '{ "schemaVersion": 1, \u001b[2J',
    '.ulpi/runs/x\u001b[2J.json.ckpt-tmp-1-aa': '{}',
  });
});
afterAll(() => p.cleanup());

const noRawControl = (text: string) => expect(RAW_CONTROL.exec(text)?.[0]).toBeUndefined();

describe('escape sequences from files', () => {
  it('should be shown, not sent, by the text, github and junit reporters', () => {
    for (const reporter of ['text', 'github', 'junit']) {
      const r = ckpt(['validate', '--reporter', reporter, '.'], p.dir);
      expect(r.code, reporter).toBe(1);
      noRawControl(r.stdout);
      expect(r.stdout, reporter).toContain('bad\\x1b[31mred\\x9b2J.json');
    }
  });

  it('should keep the exact name in the json and sarif reporters, with no raw control byte', () => {
    const json = ckpt(['validate', '--reporter', 'json', '.'], p.dir);
    noRawControl(json.stdout);
    expect(JSON.parse(json.stdout).files.map((f: { file: string }) => f.file)).toContain(BAD_FILE);
    const sarif = ckpt(['validate', '--reporter', 'sarif', '.'], p.dir);
    noRawControl(sarif.stdout);
    expect(() => JSON.parse(sarif.stdout)).not.toThrow();
  });

  it('should keep every GitHub annotation on one line', () => {
    const r = ckpt(['validate', '--reporter', 'github', '.'], p.dir);
    const lines = r.stdout.trimEnd().split('\n');
    for (const l of lines.slice(0, -1)) expect(l).toMatch(/^::(error|warning|notice) /);
  });

  it('should be shown escaped by status, list, status --run and resume', () => {
    for (const args of [['status'], ['list'], ['status', '--run', RUN], ['resume', '--run', RUN]]) {
      const r = ckpt(args, p.dir);
      expect(r.code, args.join(' ')).toBe(0);
      noRawControl(r.stdout);
      noRawControl(r.stderr);
    }
    const run = ckpt(['status', '--run', RUN], p.dir).stdout;
    expect(run).toContain('evil\\x1b]0;PWNED\\x07\\u202e');
    expect(run).toContain('task \\x1b[1A up');
  });

  it('should be JSON-escaped by --json outputs and ulpi get', () => {
    for (const args of [
      ['status', '--json'],
      ['resume', '--run', RUN, '--json'],
      ['ulpi', 'get', `.ulpi/runs/${RUN}.json`],
    ]) {
      const r = ckpt(args, p.dir);
      noRawControl(r.stdout);
      expect(JSON.stringify(JSON.parse(r.stdout))).toContain('PWNED');
    }
  });

  it('should be shown escaped by doctor', () => {
    const r = ckpt(['doctor', '.'], p.dir);
    noRawControl(r.stdout);
    expect(r.stdout).toContain('x\\x1b[2J.json.ckpt-tmp-1-aa');
  });

  it('should be shown escaped in an error message naming an argument', () => {
    const r = ckpt(['status', '--run', '\u001b]0;PWNED\u0007'], p.dir);
    expect(r.code).toBe(3);
    noRawControl(r.stderr);
    expect(r.stderr).toContain('\\x1b]0;PWNED\\x07');
  });

  it('should keep a usage error on its two lines when an argument holds a line break', () => {
    const r = ckpt(['status', '--bogus\nhint: run rm -rf ~\u001b[2J'], p.dir);
    expect(r.code).toBe(2);
    noRawControl(r.stderr);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("--bogus\\nhint: run rm -rf ~\\x1b[2J'");
    expect(lines[1]).toMatch(/^hint: /);
  });
});
