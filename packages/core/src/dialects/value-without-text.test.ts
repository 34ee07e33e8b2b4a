import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { validatePaths } from '../check/validate-files.js';
import { CkptError } from '../errors.js';
import { resumeDocument, runDocument, runsDocument } from '../view/documents.js';
import { runGraph } from '../view/graph/graph.js';
import { runHistory } from '../view/history/history.js';
import { projectReader } from '../view/history/read.js';
import { runTimeline } from '../view/history/timeline.js';
import { loadProject } from '../view/load-project.js';
import { summarizeRun } from '../view/summary.js';

const sample = join(import.meta.dirname, '../../../../test-fixtures/sample-project');

/** One run of each JSON dialect, every file of it (the resumable dialect's files are key=value text). */
const runs: Record<string, string[]> = {
  ulpi: ['.ulpi/runs/add-oauth-20261129T071300Z.json', '.ulpi/runs/add-oauth-20261129T071300Z.events.jsonl'],
  'ulpi without a log': ['.ulpi/runs/ship-search-20261120T101500Z.json'],
  team: ['.team/runs/current', '.team/runs/20261126T083011204517Z-3e9b01'],
  'agent-context': [
    '.agent-context/traces/fix-login-timeout-bug.json',
    '.agent-context/orchestrator/fix-login-timeout-bug/state.json',
    '.agent-context/runs/fix-login-timeout-bug',
  ],
};

/**
 * Values JavaScript cannot turn into text: `String`, template literals, `join`, `>=` and property keys throw
 * "Cannot convert object to primitive value" on them. JSON can hold them, so a real file can.
 */
const NO_TEXT = [{ toString: 0 }, [{ toString: 0 }]];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function pathsOf(v: Json, at: string[] = []): string[][] {
  const out = [at];
  if (v !== null && typeof v === 'object')
    for (const k of Object.keys(v)) out.push(...pathsOf((v as Record<string, Json>)[k]!, [...at, k]));
  return out;
}

function replaced(v: Json, at: readonly string[], x: unknown): Json {
  if (at.length === 0) return x as Json;
  const copy = (Array.isArray(v) ? [...v] : { ...(v as object) }) as Record<string, Json>;
  copy[at[0]!] = replaced(copy[at[0]!]!, at.slice(1), x);
  return copy as Json;
}

/** Every read a front end makes of a project: validate, the run list, and each run's pages. */
function readEverything(dir: string): void {
  validatePaths(['.'], { cwd: dir });
  const loaded = loadProject(dir);
  JSON.stringify(runsDocument(loaded));
  const read = projectReader(dir);
  for (const run of loaded) {
    JSON.stringify([runDocument(run), resumeDocument(run), runGraph(run), summarizeRun(run)]);
    JSON.stringify([runTimeline(run, read), runHistory(run, read)]);
  }
}

describe('a value that cannot be made text, anywhere in a document', () => {
  const tree = tmpTree();
  afterAll(() => tree.cleanup());

  for (const [name, files] of Object.entries(runs))
    it(`should never crash a reader (${name}: every value of every file replaced, one at a time)`, () => {
      const dir = join(tree.dir, name.replace(/ /g, '-'));
      for (const f of files) {
        mkdirSync(dirname(join(dir, f)), { recursive: true });
        cpSync(join(sample, f), join(dir, f), { recursive: true });
      }
      const json = (readdirSync(dir, { recursive: true }) as string[])
        .filter((p) => /\.jsonl?$/.test(p))
        .map((p) => join(dir, p));
      expect(json.length).toBeGreaterThan(0);
      const crashes: string[] = [];
      let variants = 0;
      for (const file of json) {
        const original = readFileSync(file, 'utf8');
        const lines = file.endsWith('.jsonl')
          ? original.split('\n').filter((l) => l.trim() !== '')
          : [original];
        lines.forEach((line, i) => {
          const value = JSON.parse(line) as Json;
          for (const at of pathsOf(value))
            for (const x of NO_TEXT) {
              const text = lines.map((l, j) => (j === i ? JSON.stringify(replaced(value, at, x)) : l));
              writeFileSync(file, file.endsWith('.jsonl') ? `${text.join('\n')}\n` : text[0]!);
              variants++;
              try {
                readEverything(dir);
              } catch (e) {
                if (!(e instanceof CkptError))
                  crashes.push(
                    `${file}#${i + 1} /${at.join('/')} = ${JSON.stringify(x)}: ${(e as Error).message}`,
                  );
              }
            }
        });
        writeFileSync(file, original);
      }
      expect(variants).toBeGreaterThan(50);
      expect(crashes.slice(0, 10)).toEqual([]);
    });
});
