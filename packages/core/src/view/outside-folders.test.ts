import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckedDocument } from '../dialects/dialect.js';
import { loadProject } from './load-project.js';
import { createProjectIndex } from './project-index.js';
import type { RunView } from './run-view.js';

// A folder below a root (a team run folder, its events/ or approvals/) that is a symbolic link to a folder outside
// the project behaves as a root linked outside: one io/outside-project finding at the folder's path, its entries
// never listed, so no name of a file outside the project is shown. A link to a folder inside is read as before.

const sample = resolve(import.meta.dirname, '../../../../test-fixtures/sample-project');
const NOW = Date.parse('2026-11-30T12:00:00Z');
const RUNS = '.team/runs';
/** A name only the outside folders hold: it must never show. */
const MARKER = 'zz-outside-marker';
const REASON = 'resolves through a symbolic link to a folder outside the project; not read';
const dirs: string[] = [];

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A copy of the sample project in `<tmp>/proj`, with `<tmp>/outside` beside it. */
function setup(): { base: string; proj: string; outside: string; runIds: string[] } {
  const base = mkdtempSync(join(tmpdir(), 'ckpt-outside-folders-'));
  dirs.push(base);
  const proj = join(base, 'proj');
  const outside = join(base, 'outside');
  cpSync(sample, proj, { recursive: true });
  mkdirSync(outside);
  const runIds = readdirSync(join(proj, RUNS))
    .filter((n) => /^\d{8}T/.test(n))
    .sort();
  return { base, proj, outside, runIds };
}

/** Moves `<proj>/<rel>` to `<to>` and puts a symbolic link to it in its place. */
function moveAndLink(proj: string, rel: string, to: string): void {
  renameSync(join(proj, rel), to);
  symlinkSync(to, join(proj, rel));
}

const load = (proj: string, confined = true) =>
  loadProject(proj, { now: NOW, ...(confined ? { confineTo: proj } : {}) });

const findingsOf = (runs: readonly RunView[], id: string) =>
  runs.find((r) => r.id === id)?.findings.map((f) => [f.code, f.file, f.line, f.column, f.message]);

describe('a team folder below the root linked outside the project', () => {
  it('events/: one io/outside-project finding at the folder, no outside name listed', () => {
    const { proj, outside, runIds } = setup();
    const id = runIds[runIds.length - 1]!;
    const events = `${RUNS}/${id}/events`;
    moveAndLink(proj, events, join(outside, 'events'));
    writeFileSync(join(outside, 'events', `${MARKER}.json`), '{}');
    const names = readdirSync(join(outside, 'events'));
    for (const pool of [{ threads: 1 }, { threads: 2, minItemsPerThread: 1 }])
      for (const signatures of [false, true]) {
        const runs = createProjectIndex(proj, { now: NOW, confineTo: proj, pool, signatures }).load().runs;
        const json = JSON.stringify(runs);
        for (const n of names) expect(json).not.toContain(n);
        const outsideFindings = runs
          .flatMap((r) => r.findings)
          .filter((f) => f.code === 'io/outside-project')
          .map((f) => [f.file, f.line, f.column, f.message]);
        expect(outsideFindings).toEqual([[events, 1, 1, `${events} ${REASON}`]]);
      }
  });

  it('approvals/: the same', () => {
    const { proj, outside, runIds } = setup();
    const id = runIds[0]!;
    const approvals = `${RUNS}/${id}/approvals`;
    moveAndLink(proj, approvals, join(outside, 'approvals'));
    writeFileSync(join(outside, 'approvals', `${MARKER}.json`), '{}');
    const runs = load(proj);
    expect(JSON.stringify(runs)).not.toContain(MARKER);
    expect(
      runs
        .flatMap((r) => r.findings)
        .filter((f) => f.code === 'io/outside-project')
        .map((f) => f.file),
    ).toEqual([approvals]);
  });

  it('a run folder: that run shows the one finding, nothing under it is listed', () => {
    const { proj, outside, runIds } = setup();
    const id = runIds[0]!;
    moveAndLink(proj, `${RUNS}/${id}`, join(outside, 'run'));
    writeFileSync(join(outside, 'run', `${MARKER}.json`), '{}');
    const runs = load(proj);
    expect(JSON.stringify(runs)).not.toContain(MARKER);
    expect(JSON.stringify(runs.find((r) => r.id === id))).not.toContain(`${id}/`);
    const dir = `${RUNS}/${id}`;
    expect(findingsOf(runs, id)).toEqual([['io/outside-project', dir, 1, 1, `${dir} ${REASON}`]]);
    expect(runs.find((r) => r.id === id)?.status).toBe('unreadable');
    // The other run is read as before.
    expect(findingsOf(runs, runIds[1]!)).toEqual(findingsOf(load(setup().proj), runIds[1]!));
  });

  it('a link to a folder inside the project reads as it does without confinement', () => {
    const { proj, runIds } = setup();
    mkdirSync(join(proj, 'kept'));
    moveAndLink(proj, `${RUNS}/${runIds[1]!}/events`, join(proj, 'kept/events'));
    moveAndLink(proj, `${RUNS}/${runIds[0]!}`, join(proj, 'kept/run'));
    const runs = load(proj);
    expect(runs).toEqual(load(proj, false));
    expect(JSON.stringify(runs)).not.toContain('io/outside-project');
    // The events behind the inside link are read: the same run as in an unlinked copy.
    const plain = load(setup().proj);
    expect(runs.find((r) => r.id === runIds[1])).toEqual(plain.find((r) => r.id === runIds[1]));
  });

  it('a refresh does not read or list through the link (a file added outside changes nothing)', () => {
    const { proj, outside, runIds } = setup();
    const events = `${RUNS}/${runIds[1]!}/events`;
    moveAndLink(proj, events, join(outside, 'events'));
    const reads: string[] = [];
    const index = createProjectIndex(proj, {
      now: NOW,
      confineTo: proj,
      readDocument: (abs: string, file: string): CheckedDocument => {
        reads.push(abs);
        return {
          path: abs,
          file,
          kind: undefined,
          text: undefined,
          value: undefined,
          usable: false,
          sourceMap: undefined,
          findings: [],
        };
      },
    });
    index.load();
    expect(reads.filter((p) => p.startsWith(join(proj, events)))).toEqual([]);
    const quiet = index.refresh();
    writeFileSync(join(outside, 'events', `${MARKER}.json`), '{}');
    const update = index.refresh();
    expect(update.changed).toEqual([]);
    expect(update.stats).toEqual(quiet.stats);
    expect(JSON.stringify(update.runs)).not.toContain(MARKER);
  });
});

describe('a root linked outside the project, at a refresh', () => {
  it('lists nothing outside: a file added there changes nothing', () => {
    const { base, proj, outside } = setup();
    mkdirSync(join(outside, 'ulpi'));
    rmSync(join(proj, '.ulpi/runs'), { recursive: true });
    symlinkSync(join(outside, 'ulpi'), join(proj, '.ulpi/runs'));
    const index = createProjectIndex(proj, { now: NOW, confineTo: proj });
    index.load();
    const quiet = index.refresh();
    writeFileSync(join(base, 'outside/ulpi', `${MARKER}.json`), '{}');
    const update = index.refresh();
    expect(update.changed).toEqual([]);
    expect(update.stats).toEqual(quiet.stats);
  });
});

describe('a resumable artifacts/ folder linked outside the project', () => {
  it('is one finding on its run; no artifact name outside is listed, contract.env not read', () => {
    const { proj, outside } = setup();
    const run = '.opencode/reports/hotfix-login-throttle-20261129T071500Z';
    moveAndLink(proj, `${run}/artifacts`, join(outside, 'artifacts'));
    writeFileSync(join(outside, 'artifacts', `${MARKER}.txt`), '');
    const runs = load(proj);
    expect(JSON.stringify(runs)).not.toContain(MARKER);
    expect(JSON.stringify(runs.find((r) => r.root === run))).not.toContain('S1-baseline-tests.txt');
    const file = `${run}/artifacts`;
    expect(
      runs
        .flatMap((r) => r.findings)
        .filter((f) => f.code === 'io/outside-project')
        .map((f) => [f.file, f.message]),
    ).toEqual([[file, `${file} ${REASON}`]]);
  });
});

describe('an agent-context folder linked outside the project', () => {
  const outsideFindings = (runs: readonly RunView[]) =>
    runs.flatMap((r) => r.findings.filter((f) => f.code === 'io/outside-project').map((f) => [r.id, f.file]));

  it('iterations/: one finding on its run, no iteration listed', () => {
    const { proj, outside } = setup();
    const it = '.agent-context/runs/fix-login-timeout-bug/iterations';
    moveAndLink(proj, it, join(outside, 'iterations'));
    mkdirSync(join(outside, 'iterations', '987'));
    writeFileSync(join(outside, 'iterations', '987', 'iteration.json'), '{}');
    const runs = load(proj);
    expect(JSON.stringify(runs)).not.toContain('987');
    expect(outsideFindings(runs)).toEqual([['fix-login-timeout-bug', it]]);
  });

  it('runs/ and orchestrator/: one finding each, no run id outside listed', () => {
    const { proj, outside } = setup();
    moveAndLink(proj, '.agent-context/runs', join(outside, 'runs'));
    moveAndLink(proj, '.agent-context/orchestrator', join(outside, 'orchestrator'));
    mkdirSync(join(outside, 'runs', MARKER));
    const runs = load(proj);
    const json = JSON.stringify(runs);
    for (const n of [MARKER, 'fix-login-timeout-bug', 'tighten-csp-headers']) expect(json).not.toContain(n);
    expect(outsideFindings(runs).sort()).toEqual([
      ['.agent-context/orchestrator', '.agent-context/orchestrator'],
      ['.agent-context/runs', '.agent-context/runs'],
    ]);
  });

  it('a run folder in runs/: one finding, its files not read', () => {
    const { proj, outside } = setup();
    const dir = '.agent-context/runs/document-webhook-retries';
    moveAndLink(proj, dir, join(outside, 'run'));
    const runs = load(proj);
    expect(JSON.stringify(runs)).not.toContain(`${dir}/`);
    expect(outsideFindings(runs)).toEqual([[dir, dir]]);
  });
});
