import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDocument } from '../check/check-document.js';
import type { CheckedDocument } from '../dialects/dialect.js';
import { loadProject } from './load-project.js';
import { createProjectIndex } from './project-index.js';

const sample = resolve(import.meta.dirname, '../../../../test-fixtures/sample-project');
const NOW = Date.parse('2026-11-30T12:00:00Z');
const dirs: string[] = [];

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function copySample(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ckpt-index-'));
  dirs.push(dir);
  cpSync(sample, dir, { recursive: true });
  return dir;
}

/** Every file under a directory, absolute paths, sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** A small deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One random edit of the project: modify a file (a whitespace change, a changed value, or a truncation that
 * breaks it), add a file (a copy of another under a new name), delete one, rename one, copy or delete a whole run
 * folder. Every change of content changes the size too (the full re-check compares size, mtime and inode, and
 * two writes within one mtime tick are otherwise alike). Returns the paths that changed.
 */
function randomEdit(dir: string, rand: () => number, step: number): string[] {
  const files = filesUnder(dir);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const f = pick(files);
  const kind = Math.floor(rand() * 10);
  switch (kind) {
    case 0:
      appendFileSync(f, '\n'.repeat(1 + (step % 3)));
      return [f];
    case 1: {
      const text = readFileSync(f, 'utf8');
      const changed = text.replace(/"(20\d\d-\d\d-\d\dT[^"]*)"/, `"2026-11-29T0${step % 10}:00:00.5Z"`);
      writeFileSync(f, changed === text ? `${text} ` : changed);
      return [f];
    }
    case 2: {
      const text = readFileSync(f, 'utf8');
      writeFileSync(f, text.slice(0, Math.max(1, Math.floor(text.length / 2))));
      return [f];
    }
    case 3: {
      const to = join(dirname(f), `copy${step}-${f.slice(dirname(f).length + 1)}`);
      cpSync(f, to);
      return [to];
    }
    case 4:
      rmSync(f);
      return [f];
    case 5: {
      const to = join(dirname(f), `renamed${step}-${f.slice(dirname(f).length + 1)}`);
      renameSync(f, to);
      return [f, to];
    }
    case 6: {
      // A run folder copied under a new name (a new run appears), or a folder deleted.
      // One or two levels up: a run, a root (`.team/runs`, `reports/<run>`) or the folder holding one.
      const d = rand() < 0.7 ? dirname(f) : dirname(dirname(f));
      if (d === dir || !d.startsWith(dir)) return randomEdit(dir, rand, step + 1);
      if (rand() < 0.5) {
        const to = `${d}-copy${step}`;
        cpSync(d, to, { recursive: true });
        return [to];
      }
      rmSync(d, { recursive: true, force: true });
      return [d];
    }
    case 8: {
      // A new event of the same task, next to the others (team: one task derived again, the listing grows).
      const event = pick(files.filter((p) => p.includes('/events/')));
      if (!event) return randomEdit(dir, rand, step + 1);
      let value: Record<string, unknown>;
      try {
        value = JSON.parse(readFileSync(event, 'utf8'));
      } catch {
        return randomEdit(dir, rand, step + 1);
      }
      const finished = rand() < 0.5;
      const attempt = typeof value.attempt === 'number' ? value.attempt + (finished ? 0 : 1) : 1;
      const to = join(dirname(event), `20261129T0${step % 10}0000000000Z-new${step}-a${attempt}.json`);
      const next = finished
        ? { ...value, event: 'task_finished', status: rand() < 0.5 ? 'completed' : 'failed', attempt }
        : { ...value, event: 'task_started', status: 'running', attempt, retry_of: attempt - 1 };
      writeFileSync(to, `${JSON.stringify({ ...next, at: `2026-11-29T0${step % 10}:00:00Z` }, null, 2)}\n`);
      return [to];
    }
    case 9: {
      // A file replaced by a symlink to a sibling, or by a folder of that name (what the listing says changes).
      const sibling = pick(filesUnder(dirname(f)));
      rmSync(f);
      if (sibling !== f && rand() < 0.6) symlinkSync(sibling, f);
      else mkdirSync(f);
      return [f];
    }
    default: {
      // A file replaced by rename, as atomic writers do (new inode, maybe the same size).
      const tmp = `${f}.tmp-${step}`;
      writeFileSync(tmp, `${readFileSync(f, 'utf8')}\n`);
      renameSync(tmp, f);
      return [tmp, f];
    }
  }
}

const fresh = (dir: string) => loadProject(dir, { now: NOW });

describe('createProjectIndex', () => {
  it('should load exactly what loadProject loads', () => {
    const dir = copySample();
    const update = createProjectIndex(dir, { now: NOW }).load();
    expect(update.runs).toEqual(fresh(dir));
    expect(update.runs.length).toBeGreaterThan(5);
    expect(update.changed.length).toBe(update.runs.length);
    expect(update.stats.documentsRead).toBeGreaterThan(50);
  });

  for (const seed of [1, 2, 3, 4]) {
    it(`should equal a fresh load after random edits, told the paths or not (seed ${seed})`, () => {
      const dir = copySample();
      const told = createProjectIndex(dir, { now: NOW });
      const checked = createProjectIndex(dir, { now: NOW });
      told.load();
      checked.load();
      const rand = prng(seed);
      for (let step = 0; step < 25; step++) {
        const paths = randomEdit(dir, rand, step);
        const expected = fresh(dir);
        const a = told.refresh(rand() < 0.5 ? paths : paths.map((p) => relative(dir, p)));
        expect(a.runs, `step ${step}: ${paths.join(', ')}`).toEqual(expected);
        const b = checked.refresh();
        expect(b.runs, `step ${step} (by signature): ${paths.join(', ')}`).toEqual(expected);
      }
    });
  }

  it('should read only the changed file again and keep the runs of other roots as they were', () => {
    const dir = copySample();
    let reads: string[] = [];
    const readDocument = (abs: string, file: string): CheckedDocument => {
      reads.push(file);
      return checkDocument(abs, file, { sniff: true })!;
    };
    const index = createProjectIndex(dir, { now: NOW, readDocument });
    const first = index.load();
    expect(reads.length).toBe(first.stats.documentsRead);
    const event = filesUnder(join(dir, '.team/runs')).find((p) => p.includes('/events/'))!;
    appendFileSync(event, '\n');
    reads = [];
    const next = index.refresh([event]);
    expect(reads).toEqual([relative(dir, event)]);
    // The team root, and the resumable root whose lock holder's liveness is asked again (volatile).
    expect(next.stats).toMatchObject({ documentsRead: 1, rootsLoaded: 2, rediscovered: false });
    expect(next.changed.some((k) => k.startsWith('team/'))).toBe(true);
    expect(next.changed.some((k) => k.startsWith('ulpi/') || k.startsWith('agent-context/'))).toBe(false);
    const before = new Map(first.runs.map((r) => [`${r.dialect}/${r.id}`, r]));
    for (const r of next.runs)
      if (!next.changed.includes(`${r.dialect}/${r.id}`)) expect(r).toBe(before.get(`${r.dialect}/${r.id}`));
    expect(next.runs.filter((r) => r.dialect === 'ulpi').length).toBeGreaterThan(0);
    expect(next.runs).toEqual(fresh(dir));

    // The same edit found by comparing signatures: still one file read.
    appendFileSync(event, '\n');
    reads = [];
    expect(index.refresh().stats.documentsRead).toBe(1);
    expect(reads).toEqual([relative(dir, event)]);

    // Nothing changed: nothing read, nothing derived again but what depends on the clock.
    reads = [];
    const same = index.refresh([]);
    expect(reads).toEqual([]);
    expect(same.changed).toEqual([]);
  });

  it('should derive again only the team task whose event changed or was added, and no other run', () => {
    const dir = copySample();
    const index = createProjectIndex(dir, { now: NOW });
    const first = index.load();
    const key = (r: { dialect: string; id: string }) => `${r.dialect}/${r.id}`;
    const run = first.runs.find((r) => r.dialect === 'team' && r.units.length >= 4)!;
    expect(run).toBeDefined();
    const task = run.units[1]!;
    const event = join(dir, task.attempts.at(-1)!.sources!.at(-1)!);
    const value = JSON.parse(readFileSync(event, 'utf8'));
    writeFileSync(event, JSON.stringify({ ...value, evidence: 'checked again by hand' }));

    const changed = index.refresh([event]);
    expect(changed.changed).toEqual([key(run)]);
    const after = changed.runs.find((r) => key(r) === key(run))!;
    // The task views derived again: only the changed task's.
    const rederived = after.units.filter((u) => !run.units.includes(u));
    expect(rederived.map((u) => u.id)).toEqual([task.id]);
    for (const r of changed.runs)
      if (key(r) !== key(run)) expect(r).toBe(first.runs.find((x) => key(x) === key(r)));
    expect(changed.runs).toEqual(fresh(dir));

    // A new task's first event: one new task view, every other task's the same object.
    const added = join(
      dirname(event),
      '20261128T160000000000Z-task_started-build-qa-20261128T1600Z-a1-abcdef.json',
    );
    writeFileSync(
      added,
      JSON.stringify({
        ...value,
        task_id: 'build-qa-20261128T1600Z',
        event: 'task_started',
        at: '2026-11-28T16:00:00Z',
      }),
    );
    const grown = index.refresh([added]);
    const last = grown.runs.find((r) => key(r) === key(run))!;
    expect(last.units.filter((u) => !after.units.includes(u)).map((u) => u.id)).toEqual([
      'build-qa-20261128T1600Z',
    ]);
    expect(grown.runs).toEqual(fresh(dir));
  });

  it('should load the same runs when the team documents are read ahead on worker threads', () => {
    const dir = copySample();
    const pooled = createProjectIndex(dir, { now: NOW, pool: { threads: 2, minItemsPerThread: 1 } });
    const first = pooled.load();
    expect(first.runs).toEqual(fresh(dir));
    const event = filesUnder(join(dir, '.team/runs')).find((p) => p.includes('/events/'))!;
    writeFileSync(event, '{"event": "task_started"');
    expect(pooled.refresh([event]).runs).toEqual(fresh(dir));
  });

  it('should read each team document once in a one-shot load on worker threads, its run.json too', () => {
    const dir = copySample();
    const pool = { threads: 2, minItemsPerThread: 1 };
    const runsDir = join(dir, '.team/runs');
    const documents = readdirSync(runsDir)
      .filter((n) => n.startsWith('2026'))
      .flatMap((n) => [
        ...(existsSync(join(runsDir, n, 'run.json')) ? ['run.json'] : []),
        ...['events', 'approvals'].flatMap((sub) =>
          existsSync(join(runsDir, n, sub))
            ? readdirSync(join(runsDir, n, sub)).filter((f) => f.endsWith('.json'))
            : [],
        ),
      ]);
    const once = createProjectIndex(dir, { now: NOW, dialects: ['team'], signatures: false, pool }).load();
    expect(once.stats.documentsRead).toBe(documents.length);
    expect(JSON.stringify(once.runs)).toBe(
      JSON.stringify(
        createProjectIndex(dir, { now: NOW, dialects: ['team'], pool: { threads: 1 } }).load().runs,
      ),
    );
  });

  it('should load the same runs on worker threads when event file names lie or texts hold secrets', () => {
    const dir = copySample();
    const events = filesUnder(join(dir, '.team/runs')).filter((p) => p.includes('/events/'));
    const started = events.filter((p) => p.includes('-task_started-'));
    const finished = events.filter((p) => p.includes('-task_finished-'));
    // A name that claims another task than its body, and one that does not parse: the body decides.
    renameSync(started[0]!, started[0]!.replace(/-task_started-.+-a(\d+)-/, '-task_started-other-task-a$1-'));
    renameSync(finished[1]!, join(dirname(finished[1]!), 'not-an-event-name.json'));
    // A secret in the evidence of a unit, and the same start written twice.
    const doc = JSON.parse(readFileSync(finished[0]!, 'utf8'));
    writeFileSync(finished[0]!, JSON.stringify({ ...doc, evidence: 'token=abcdefghijklmnop' }));
    writeFileSync(started[1]!.replace(/-[0-9a-f]{6}\.json$/, '-ffffff.json'), readFileSync(started[1]!));
    for (const showSecrets of [false, true])
      for (const signatures of [false, true]) {
        const opts = { now: NOW, showSecrets, signatures };
        const pooled = createProjectIndex(dir, { ...opts, pool: { threads: 2, minItemsPerThread: 1 } });
        const one = createProjectIndex(dir, { ...opts, pool: { threads: 1 } });
        const json = JSON.stringify(pooled.load().runs);
        expect(json).toBe(JSON.stringify(one.load().runs));
        expect(json.includes('abcdefghijklmnop')).toBe(showSecrets);
      }
  });

  it('should report a new run as changed and a deleted one as removed', () => {
    const dir = copySample();
    const index = createProjectIndex(dir, { now: NOW });
    const first = index.load();
    const runDir = readdirSync(join(dir, '.team/runs')).find((n) => n.startsWith('2026'))!;
    const copy = join(dir, '.team/runs', '20261130T000000000000Z-abcdef');
    cpSync(join(dir, '.team/runs', runDir), copy, { recursive: true });
    const added = index.refresh([copy]);
    expect(added.changed).toContain('team/20261130T000000000000Z-abcdef');
    expect(added.runs.length).toBe(first.runs.length + 1);
    rmSync(copy, { recursive: true });
    const gone = index.refresh([copy]);
    expect(gone.removed).toEqual(['team/20261130T000000000000Z-abcdef']);
    expect(gone.runs).toEqual(fresh(dir));
  });

  it('should derive time-dependent facts at each read, not keep them', () => {
    const dir = copySample();
    const runsDir = join(dir, '.ulpi/runs');
    const temp = join(runsDir, 'ship-search-20261120T101500Z.json.tmp.4242');
    writeFileSync(temp, '{');
    const index = createProjectIndex(dir);
    const first = index.load();
    const hasStale = (runs: typeof first.runs) =>
      runs.some((r) => r.findings.some((f) => f.code === 'ulpi/stale-temp-file'));
    expect(hasStale(first.runs)).toBe(false);
    // The temp file is now an hour old: nothing else changed, and the index still sees its age.
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(temp, old, old);
    expect(hasStale(index.refresh([]).runs)).toBe(true);
    expect(index.runs()).toEqual(loadProject(dir));
  });

  it('should follow a project whose roots appear after the first load', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ckpt-index-empty-'));
    dirs.push(dir);
    const index = createProjectIndex(dir, { now: NOW });
    expect(index.load().runs).toEqual([]);
    mkdirSync(join(dir, '.ulpi'), { recursive: true });
    cpSync(join(sample, '.ulpi/runs'), join(dir, '.ulpi/runs'), { recursive: true });
    const next = index.refresh([join(dir, '.ulpi')]);
    expect(next.stats.rediscovered).toBe(true);
    expect(next.runs.length).toBeGreaterThan(0);
    expect(next.runs).toEqual(fresh(dir));
    expect(existsSync(join(dir, '.ulpi/runs'))).toBe(true);
    expect(statSync(join(dir, '.ulpi/runs')).isDirectory()).toBe(true);
  });
});
