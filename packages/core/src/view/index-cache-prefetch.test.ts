import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { teamDocumentNames, teamDocumentPaths } from '../dialects/team/load.js';
import { warmPool, warmPoolLoaded } from '../pool/pool.js';
import {
  listingTaken,
  prefetchDocuments,
  prefetchTeamRoot,
  viewDocumentsTask,
} from './index-cache-prefetch.js';

// Pooled runs use core's built worker (packages/core/dist/pool/pool-worker.js): build core first.

const tmp = mkdtempSync(join(tmpdir(), 'ckpt-prefetch-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const RUN = '20261120T080000000000Z-420ade';

/** A `task_started` value for task `n` that the schema takes, with `extra` members over it. */
function eventValue(n: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event: 'task_started',
    at: '2026-11-20T08:00:00Z',
    run_id: RUN,
    task_id: `build-t${String(n).padStart(5, '0')}`,
    stage: 'build',
    agent: 'be',
    attempt: 1,
    status: 'running',
    inputs: [],
    artifacts: [],
    evidence: '',
    next: '',
    ...extra,
  };
}

/** An event file whose value tells it apart from every other (`n`, and a name that sorts by `n`). */
function writeEvent(events: string, n: number, suffix = 'a'): string {
  const name = `20261120T08${String(n).padStart(8, '0')}Z-task_started-build-t${String(n).padStart(5, '0')}-${suffix}.json`;
  writeFileSync(
    join(events, name),
    `${JSON.stringify(eventValue(n, { evidence: `${n}${suffix}` }), null, 2)}\n`,
  );
  return name;
}

/** What a loaded document is, as the loader sees it. */
const seen = (
  docs: readonly { path: string; file: string; kind?: string; value: unknown; findings: unknown }[],
) => docs.map((d) => ({ path: d.path, file: d.file, kind: d.kind, value: d.value, findings: d.findings }));

/** A team run folder under `<tmp>/<sub>/.team/runs` with its events and approvals folders and `run.json`. */
function makeRun(sub: string, runJson: string): { runs: string; events: string } {
  const runs = join(tmp, sub, '.team', 'runs');
  const events = join(runs, RUN, 'events');
  mkdirSync(events, { recursive: true });
  mkdirSync(join(runs, RUN, 'approvals'));
  writeFileSync(join(runs, RUN, 'run.json'), runJson);
  return { runs, events };
}

describe('prefetchTeamRoot', () => {
  it('should load what a fresh load does when the folder changes between the workers listing and this thread', async () => {
    const { runs, events } = makeRun(
      '',
      `${JSON.stringify({ run_id: RUN, created_at: '2026-11-20T08:00:00Z' })}\n`,
    );
    const names: string[] = [];
    for (let n = 0; n < 600; n += 2) names.push(writeEvent(events, n));
    const pool = { threads: 2, minItemsPerThread: 1, chunkSize: 8 };
    warmPool(2);
    await warmPoolLoaded();
    // The worker does not wait for this thread's listing: it lists the root itself at once.
    const ahead = prefetchTeamRoot(runs, tmp, undefined, pool, false, 0);
    expect(ahead).toBeDefined();
    // The worker has listed the root once it takes a first chunk.
    const until = Date.now() + 30_000;
    while (Atomics.load(ahead!.state, 0) === 0 && Date.now() < until);
    expect(Atomics.load(ahead!.state, 0)).toBeGreaterThan(0);
    // Then: files removed, added between the others, renamed, and a run that sorts first (every index moves).
    for (const i of [0, 7, 100, 200, 299]) rmSync(join(events, names[i]!));
    for (const n of [1, 3, 151, 401, 599, 601]) writeEvent(events, n);
    for (const i of [10, 50, 250])
      renameSync(join(events, names[i]!), join(events, names[i]!.replace('-a.json', '-b.json')));
    const first = join(runs, '20261119T080000000000Z-000000', 'events');
    mkdirSync(first, { recursive: true });
    for (let n = 0; n < 20; n++) writeEvent(first, n, 'c');
    const list = teamDocumentPaths(runs);
    const got = prefetchDocuments(list, tmp, undefined, pool, undefined, ahead);
    // A fresh load of the folder as it is now.
    warmPool(2);
    const fresh = prefetchDocuments(teamDocumentPaths(runs), tmp, undefined, pool);
    expect(got).toHaveLength(list.paths.length);
    expect(seen(got!)).toEqual(seen(fresh!));
    expect(got!.map((d) => (d.value as { evidence?: string })?.evidence)).toContain('601a');
    expect(got!.every((d, i) => d.path === list.paths[i])).toBe(true);
    expect(listingTaken(ahead!)).toBe(false);
  }, 60_000);

  it("should read by this thread's listing, given block by block, what one thread reads", async () => {
    const { runs, events } = makeRun('given', `${JSON.stringify({ run_id: RUN })}\n`);
    // Past the first block of names, one of them not ASCII (its block is written as UTF-8), one not JSON.
    for (let n = 0; n < 1500; n++) writeEvent(events, n);
    writeEvent(events, 1400, 'é');
    writeFileSync(join(events, '20261120T0800001401Z-broken.json'), '{');
    writeFileSync(join(runs, RUN, 'approvals', 'a.json'), '{}');
    const pool = { threads: 2, minItemsPerThread: 1, chunkSize: 8 };
    warmPool(2);
    await warmPoolLoaded();
    const ahead = prefetchTeamRoot(runs, tmp, undefined, pool);
    expect(ahead).toBeDefined();
    const list = teamDocumentPaths(runs);
    const got = prefetchDocuments(list, tmp, undefined, pool, undefined, ahead);
    expect(listingTaken(ahead!)).toBe(true);
    expect(got).toHaveLength(list.paths.length);
    expect(got!.every((d, i) => d.path === list.paths[i])).toBe(true);
    // The same list read in one chunk, by one thread.
    const one = prefetchDocuments(list, tmp, undefined, { ...pool, chunkSize: 4096 });
    expect(seen(got!)).toEqual(seen(one!));
    expect(got!.map((d) => (d.value as { evidence?: string })?.evidence)).toContain('1400é');
    expect(got!.some((d) => d.findings.some((f) => f.code.startsWith('parse/')))).toBe(true);
  }, 60_000);
});

describe('packed records', () => {
  /**
   * Events the schema takes (no finding): 600 plain ones, and some whose values JSON text cannot carry as a
   * structured clone does.
   */
  function writeOdd(events: string): void {
    const value = (n: number) =>
      eventValue(n, {
        session: 'ses_a868bcdb0c5be56eeb4818f4',
        parent_session: 'ses_105d497528cfb8c1a453c9c8',
      });
    const write = (n: number, text: string) =>
      writeFileSync(
        join(
          events,
          `20261120T08${String(n).padStart(8, '0')}Z-task_started-build-t${String(n).padStart(5, '0')}-a1-${n > 9000 ? 'odd' : 'tok'}${n}.json`,
        ),
        text,
      );
    for (let n = 0; n < 600; n++) write(n, JSON.stringify(value(n), null, 2));
    const plain = JSON.stringify(value(9001));
    // -0 (JSON text writes it as 0), nested and in the members a summary keeps.
    write(9001, plain.replace('"next":""', '"next":"","x_neg":-0,"x_deep":{"a":[1,-0.0]}'));
    write(9002, JSON.stringify(value(9002)).replace('"artifacts":[]', '"artifacts":["a"],"retry_of":-0'));
    // An own "__proto__" member and unpaired surrogates (escaped by the text, read back the same).
    write(
      9003,
      JSON.stringify(value(9003)).replace('"next":""', '"next":"\\ud800x","__proto__":{"b":"\\udc00"}'),
    );
  }

  it("sends plain task events' values as one text a chunk and anything else as objects; the documents equal one thread's", async () => {
    const { runs, events } = makeRun('packed', `${JSON.stringify({ run_id: RUN })}\n`);
    writeOdd(events);
    writeFileSync(join(events, '20261120T0800000501Z-broken.json'), '{');
    const list = teamDocumentPaths(runs);
    for (const eventState of [false, true]) {
      const sent = viewDocumentsTask.start({
        list,
        displayDir: tmp,
        confineTo: undefined,
        eventState,
        pack: true,
      })(0, list.paths.length);
      const byName = new Map(list.names.map((n, i) => [n, sent[i]]));
      // The run document, the broken event and the events holding -0 (in what is kept of them) go as objects;
      // the others packed, "__proto__" and surrogates too: their values as one text in the place of the first.
      const packedAs = (x: unknown) => (typeof x === 'object' ? 'object' : 'packed');
      const kind = (n: number) => packedAs(byName.get(list.names.find((x) => x.endsWith(`-odd${n}.json`))!));
      expect(typeof byName.get('run.json')).toBe('object');
      expect(typeof byName.get('20261120T0800000501Z-broken.json')).toBe('object');
      expect([kind(9001), kind(9002), kind(9003)]).toEqual([
        eventState ? 'packed' : 'object',
        'object',
        'packed',
      ]);
      expect(sent.filter((r) => typeof r !== 'object')).toHaveLength(eventState ? 602 : 601);
      expect(sent.filter((r) => typeof r === 'string')).toHaveLength(1);
      const pool = { threads: 2, minItemsPerThread: 1, chunkSize: 8 };
      warmPool(2);
      await warmPoolLoaded();
      const ahead = prefetchTeamRoot(runs, tmp, undefined, pool, eventState);
      const got = prefetchDocuments(list, tmp, undefined, pool, undefined, ahead, eventState);
      expect(listingTaken(ahead!)).toBe(true);
      const one = prefetchDocuments(
        list,
        tmp,
        undefined,
        { ...pool, chunkSize: 4096 },
        undefined,
        undefined,
        eventState,
      );
      expect(seen(got!)).toEqual(seen(one!));
      const odd = got!.filter((d) => d.path.includes('-odd')).map((d) => d.value as Record<string, unknown>);
      if (!eventState) {
        expect(Object.is(odd[0]!.x_neg, -0)).toBe(true);
        expect(Object.hasOwn(odd[2]!, '__proto__')).toBe(true);
        expect(odd[2]!.next).toBe('\ud800x');
      }
      expect(Object.is(odd[1]!.retry_of, -0)).toBe(true);
    }
  }, 60_000);
});

describe('teamDocumentNames', () => {
  const fixtures = resolve(import.meta.dirname, '../../../../test-fixtures');
  const namesOf = (runs: string, confineTo?: string) => {
    const { dirs, names, listedAsFile } = teamDocumentPaths(runs, { confineTo });
    return { dirs, names, listedAsFile };
  };

  it('lists what teamDocumentPaths lists, in the same order, on every team fixture', () => {
    const roots = [
      join(fixtures, 'sample-project', '.team', 'runs'),
      ...readdirSync(join(fixtures, 'team')).map((f) => join(fixtures, 'team', f, '.team', 'runs')),
    ];
    let documents = 0;
    for (const runs of roots) {
      const project = resolve(runs, '../..');
      expect(teamDocumentNames(runs, project)).toEqual(namesOf(runs, project));
      documents += teamDocumentNames(runs, undefined).names.length;
    }
    expect(documents).toBeGreaterThan(40);
  });

  it('keeps temp files, folders named like documents, links and unsorted names as teamDocumentPaths does', () => {
    const { runs, events } = makeRun('names', '{}');
    const run = join(runs, RUN);
    for (const n of [5, 1, 3]) writeEvent(events, n);
    writeFileSync(join(events, 'x.json.tmp'), '{}');
    writeFileSync(join(events, `y.json.ckpt-tmp-1-ab`), '{}');
    writeFileSync(join(events, 'w.ckpt-tmp-2.json'), '{}');
    writeFileSync(join(events, 'tmp-z.json'), '{}');
    writeFileSync(join(events, 'notes.txt'), '');
    mkdirSync(join(events, 'folder.json'));
    symlinkSync(join(events, 'missing'), join(events, 'dangling.json'));
    writeFileSync(join(run, 'approvals', 'a.json'), '{}');
    mkdirSync(join(runs, 'empty-run'));
    writeFileSync(join(runs, 'current'), RUN);
    const got = teamDocumentNames(runs, undefined);
    expect(got).toEqual(namesOf(runs));
    expect(got.names).toContain('tmp-z.json');
    expect(got.names).not.toContain('x.json.tmp');
    expect(got.names).not.toContain('w.ckpt-tmp-2.json');
    expect(got.listedAsFile[got.names.indexOf('folder.json')]).toBe(false);
  });
});
