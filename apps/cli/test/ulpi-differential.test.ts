import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './run-cli.js';

// The differential suite: every case of test-fixtures/ulpi/differential/ was recorded by running the original
// checkpoint.mjs (apps/cli/scripts/ulpi-differential/record.mjs); here ckpt runs the same words on the same
// tree and must give the same exit code, stdout, stderr after the program prefix and resulting files. Where ckpt
// answers differently on purpose (the original crashes, or a kept difference listed in the ulpi spec page), the
// case carries a `ckpt` block with what ckpt gives instead and why.

interface Outcome {
  exitCode: number;
  stdout: string;
  stderr: string;
  files: Record<string, unknown>;
}
interface Case {
  description: string;
  args: string[];
  files?: Record<string, unknown>;
  dirs?: Record<string, { mtime?: string }>;
  now: string;
  original: Outcome;
  ckpt?: Partial<Outcome> & { reason: string };
}

const dir = join(repoRoot, 'test-fixtures/ulpi/differential');
const serialize = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

function writeTree(root: string, c: Case): void {
  for (const [rel, v] of Object.entries(c.files ?? {})) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), typeof v === 'string' ? v : serialize(v));
  }
  for (const [rel, d] of Object.entries(c.dirs ?? {})) {
    mkdirSync(join(root, rel), { recursive: true });
    if (d.mtime) utimesSync(join(root, rel), new Date(d.mtime), new Date(d.mtime));
  }
}

/** Files as the recorder keeps them: canonical JSON as a value, anything else as text. */
function readTree(root: string, rel = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const e of readdirSync(join(root, rel), { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  )) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(out, readTree(root, r));
    else {
      const text = readFileSync(join(root, r), 'utf8');
      let v: unknown = text;
      try {
        const parsed: unknown = JSON.parse(text);
        if (typeof parsed !== 'string' && serialize(parsed) === text) v = parsed;
      } catch {
        // Not JSON: compared as text.
      }
      out[r] = v;
    }
  }
  return out;
}

/** The message lines without the program's prefix (`checkpoint: ` or `ckpt: `); the usage line names the program. */
const unprefixed = (s: string) =>
  s
    .split('\n')
    .map((l) => l.replace(/^(checkpoint|ckpt): /, ''))
    .join('\n')
    .replace('usage: checkpoint.mjs ', 'usage: ckpt ulpi ');

// Key order is part of the format: compare the serialised files, not the parsed values.
const asText = (files: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(files).map(([k, v]) => [k, typeof v === 'string' ? v : serialize(v)]));

const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => ({ name: f.slice(0, -5), c: JSON.parse(readFileSync(join(dir, f), 'utf8')) as Case }));

describe('ckpt ulpi against the recorded original checkpoint.mjs', () => {
  it('should hold at least 60 recorded cases covering every verb', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    const verbs = new Set(cases.map(({ c }) => c.args[0]));
    for (const v of [
      'init',
      'unit',
      'phase',
      'get',
      'resume',
      'item',
      'resolve',
      'validation',
      'finalize',
      'gc',
    ])
      expect(verbs, v).toContain(v);
  });

  for (const { name, c } of cases) {
    it(`${name}: ${c.description}`, () => {
      const root = mkdtempSync(join(tmpdir(), 'ckpt-ulpi-diff-'));
      try {
        writeTree(root, c);
        const r = runCli(['ulpi', ...c.args], { cwd: root, env: { CKPT_NOW: c.now } });
        const want = { ...c.original, ...(c.ckpt ?? {}) };
        expect({
          exitCode: r.code,
          stdout: r.stdout,
          stderr: unprefixed(r.stderr),
          files: asText(readTree(root)),
        }).toEqual({
          exitCode: want.exitCode,
          stdout: want.stdout,
          stderr: unprefixed(want.stderr),
          files: asText(want.files),
        });
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  }
});
