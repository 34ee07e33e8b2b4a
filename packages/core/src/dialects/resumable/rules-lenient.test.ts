import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { describe, expect, it } from 'vitest';
import { validatePaths } from '../../check/validate-files.js';
import { holderOf } from './lock.js';
import { parseRunLog } from './run-log.js';
import { fakeProbe, freshRun, loadFresh, refusal } from './test-helpers.js';
import { acquireResumableLock, releaseResumableLock } from './write-lock.js';

/** What people following the skill write, where ckpt's own conventions used to report an error. */
const fixtures = resolve(import.meta.dirname, '../../../../../test-fixtures/resumable');
const me = { probe: fakeProbe([1]), pid: 1, user: 'u' };

const run = () => freshRun(me, ['S1']);

function setKey(path: string, key: string, line: string | undefined) {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => !l.startsWith(`${key}=`));
  if (line !== undefined) lines.splice(lines.length - 1, 0, line);
  writeFileSync(path, lines.join('\n'));
}

const findingsOf = (root: string) =>
  loadFresh(root, me.probe).findings.map((f) => `${f.severity} ${f.code} ${f.message}`);

describe('schema versions', () => {
  it('should read 1, 1.0 and v1 as version 1, warn on a missing version and refuse version 2', () => {
    const { t, root } = run();
    const state = join(root, 'state.env');
    for (const v of ['1', '1.0', 'v1', 'V1.0.0']) {
      setKey(state, 'STATE_SCHEMA_VERSION', `STATE_SCHEMA_VERSION="${v}"`);
      expect(findingsOf(root).filter((f) => f.includes('SCHEMA_VERSION'))).toEqual([]);
    }
    setKey(state, 'STATE_SCHEMA_VERSION', undefined);
    expect(findingsOf(root)).toContain(
      'warning resumable/schema-version-missing STATE_SCHEMA_VERSION is not set: read as version 1',
    );
    setKey(state, 'STATE_SCHEMA_VERSION', 'STATE_SCHEMA_VERSION="2"');
    expect(findingsOf(root)).toContain(
      'error resumable/unsupported-schema-version STATE_SCHEMA_VERSION="2": ckpt reads version 1 ("1", "1.0" or "v1")',
    );
    setKey(join(root, 'checklist.state.env'), 'CHECKLIST_SCHEMA_VERSION', undefined);
    expect(findingsOf(root)).toContain(
      'warning resumable/schema-version-missing CHECKLIST_SCHEMA_VERSION is not set: read as version 1',
    );
    t.cleanup();
  });
});

describe('CURRENT_STAGE', () => {
  it('should take any terminal word in any case as "all done", and hold it to the done flags', () => {
    const { t, root } = run();
    const state = join(root, 'state.env');
    for (const w of ['COMPLETE', 'completed', 'Finished', 'FINALIZED', 'done']) {
      setKey(state, 'CURRENT_STAGE', `CURRENT_STAGE="${w}"`);
      expect(findingsOf(root).filter((f) => f.includes('CURRENT_STAGE'))).toEqual([
        `error resumable/current-stage-ahead CURRENT_STAGE="${w}" but S1, S2, S3 are not done`,
      ]);
    }
    t.cleanup();
  });

  it('should warn on a pointer naming no stage and on a missing pointer, never a schema error', () => {
    const { t, root } = run();
    const state = join(root, 'state.env');
    setKey(state, 'CURRENT_STAGE', 'CURRENT_STAGE="S2_BUILD"');
    expect(findingsOf(root)).toEqual([
      'warning resumable/unknown-current-stage CURRENT_STAGE="S2_BUILD" but there is no S2_BUILD_DONE flag',
    ]);
    setKey(state, 'CURRENT_STAGE', 'CURRENT_STAGE="s1"');
    expect(findingsOf(root)).toEqual([]);
    setKey(state, 'CURRENT_STAGE', 'CURRENT_STAGE=""');
    expect(findingsOf(root)).toEqual([
      'warning resumable/current-stage-missing CURRENT_STAGE is not set: resume follows the done flags',
    ]);
    t.cleanup();
  });
});

describe('run identity', () => {
  it('should only warn when the folder or the task part of RUN_ROOT is named otherwise', () => {
    const { t, root } = run();
    const copy = join(t.dir, 'reports', 'copied-for-ci');
    renameSync(root, copy);
    expect(findingsOf(copy)).toEqual([
      'warning resumable/run-name-mismatch the run-root folder is "copied-for-ci", not TASK_NAME-RUN_ID "demo-20261129T100000Z" (a copy or a renamed folder?)',
    ]);
    setKey(join(copy, 'state.env'), 'TASK_NAME', 'TASK_NAME="Demo task"');
    expect(findingsOf(copy).map((f) => f.split(' ').slice(0, 2).join(' '))).toEqual([
      'warning resumable/run-name-mismatch',
      'warning resumable/run-name-mismatch',
    ]);
    t.cleanup();
  });

  it('should stop when RUN_ROOT names another run id', () => {
    const { t, root } = run();
    const state = join(root, 'state.env');
    const rr = /^RUN_ROOT="(.*)"$/m.exec(readFileSync(state, 'utf8'))![1]!;
    setKey(state, 'RUN_ROOT', `RUN_ROOT="${rr.replace('20261129T100000Z', '20261128T090000Z')}"`);
    expect(findingsOf(root)).toContainEqual(
      expect.stringMatching(/^error resumable\/run-identity-mismatch RUN_ROOT ".*" names another run/),
    );
    t.cleanup();
  });
});

describe('the lock', () => {
  it('should read pid, host, user and the time under upper-case keys and other spellings', () => {
    expect(holderOf({ PID: '7', HOSTNAME: 'box', USER: 'ann', TIMESTAMP: '2026-11-29 10:00' })).toEqual({
      pid: '7',
      host: 'box',
      user: 'ann',
      runId: '',
      acquiredAt: '2026-11-29 10:00',
    });
  });

  it('should read the lock from the file LOCK_FILE names and report its findings in validate', () => {
    const t = tmpTree();
    cpSync(join(fixtures, 'valid-lock-file-declared'), t.dir, { recursive: true });
    const root = join(t.dir, '.opencode/reports/rotate-db-creds-20261129T200000Z');
    const { run: r } = loadFresh(root, me.probe);
    expect(r.lock?.file.endsWith('locks/writer.lock')).toBe(true);
    expect(r.lockState.state).toBe('foreign');
    writeFileSync(
      join(root, 'locks/writer.lock'),
      'pid=51877\nhost=build-agent-3\nuser=ci\nrun_id=20261101T000000Z\n',
    );
    const report = validatePaths(['.'], { cwd: t.dir });
    expect(
      report.files.flatMap((f) => f.findings.map((x) => `${f.file}:${x.line} ${x.severity} ${x.code}`)),
    ).toEqual([
      '.opencode/reports/rotate-db-creds-20261129T200000Z/locks/writer.lock:1 warning resumable/lock-incomplete',
      '.opencode/reports/rotate-db-creds-20261129T200000Z/locks/writer.lock:4 error resumable/run-identity-mismatch',
    ]);
    t.cleanup();
  });

  it('should take a lock naming the run by its run-root name as this run, and any other name as another', () => {
    const { t, root } = run();
    const lock = (id: string) => `pid=9\nhost=elsewhere\nuser=u\nrun_id=${id}\ntimestamp=x\n`;
    writeFileSync(join(root, 'run.lock'), lock('demo-20261129T100000Z'));
    expect(findingsOf(root)).toEqual([]);
    writeFileSync(join(root, 'run.lock'), lock('demo-20261128T090000Z'));
    expect(findingsOf(root)).toEqual([
      'error resumable/run-identity-mismatch the lock names run demo-20261128T090000Z but RUN_ID is 20261129T100000Z',
    ]);
    t.cleanup();
  });

  it('should read a lock written on one line (pid=… host=… user=… timestamp=…)', () => {
    const { t, root } = run();
    writeFileSync(join(root, 'run.lock'), 'pid=9 host=elsewhere user=u timestamp=2026-11-29T10:00:00Z\n');
    const { run: r, findings } = loadFresh(root, me.probe);
    expect(r.lockState.state).toBe('foreign');
    expect(findings).toEqual([]);
    t.cleanup();
  });

  it('should read a lock written as a flat JSON object, for readers and writers alike', () => {
    const t = tmpTree();
    cpSync(join(fixtures, 'valid-lock-json'), t.dir, { recursive: true });
    const root = join(t.dir, '.opencode/reports/rotate-db-creds-20261129T230000Z');
    const { run: r, findings } = loadFresh(root, me.probe);
    expect(r.lockState).toMatchObject({ state: 'foreign', holder: { pid: '51877', host: 'build-agent-3' } });
    expect(findings).toEqual([]);
    const writer = { probe: fakeProbe([1]), pid: 1, user: 'u', mutex: { staleMs: 0 } };
    expect(() => acquireResumableLock(root, writer)).toThrow(/locked on another host \(pid=51877/);
    t.cleanup();
  });

  it('should find a lock named lock, .lock or state.lock when LOCK_FILE names no existing file', () => {
    const { t, root } = run();
    for (const name of ['lock', '.lock', 'state.lock']) {
      mkdirSync(root, { recursive: true });
      writeFileSync(join(root, name), 'pid=9\nhost=elsewhere\nuser=u\ntimestamp=x\n');
      expect(loadFresh(root, me.probe).run.lockState.state).toBe('foreign');
      renameSync(join(root, name), join(t.dir, `moved-${name}`));
    }
    t.cleanup();
  });
});

describe('REQUIRED_<STAGE>', () => {
  it('should read items separated by commas or spaces, as ITEM or CB_<STAGE>_ITEM', () => {
    const { t, root } = run();
    const checklist = join(root, 'checklist.state.env');
    setKey(checklist, 'REQUIRED_S1', 'REQUIRED_S1="A B, CB_S1_TESTS"');
    setKey(join(root, 'state.env'), 'S1_DONE', 'S1_DONE="1"');
    setKey(checklist, 'CB_S1_A', 'CB_S1_A="1"');
    setKey(checklist, 'CB_S1_B', 'CB_S1_B="1"');
    expect(findingsOf(root)).toEqual([
      'error resumable/stage-done-checklist-incomplete S1_DONE=1 but CB_S1_TESTS=(missing)',
    ]);
    t.cleanup();
  });
});

describe('writers and a lock the run names', () => {
  it('should refuse a live lock at LOCK_FILE and replace a stale one there, never beside it as run.lock', () => {
    const { t, root } = run();
    setKey(join(root, 'state.env'), 'LOCK_FILE', 'LOCK_FILE="$RUN_ROOT/lock"');
    const lock = (pid: number) => `pid=${pid}\nhost=this-host\nuser=ann\ntimestamp=2026-11-29T10:00:00Z\n`;
    writeFileSync(join(root, 'lock'), lock(77));
    const writer = { probe: fakeProbe([1, 77]), pid: 1, user: 'u', mutex: { staleMs: 0 } };
    expect(refusal(() => acquireResumableLock(root, writer))).toBe(2);
    writeFileSync(join(root, 'lock'), lock(78));
    expect(acquireResumableLock(root, writer)).toBe('replaced-stale');
    expect(readFileSync(join(root, 'lock'), 'utf8')).toContain('pid="1"');
    expect(existsSync(join(root, 'run.lock'))).toBe(false);
    expect(releaseResumableLock(root, writer)).toBe('released');
    expect(existsSync(join(root, 'lock'))).toBe(false);
    t.cleanup();
  });
});

describe('run.log', () => {
  it('should read the time as people write it, bracketed or not, and normalise it to UTC', () => {
    const lines = parseRunLog(
      [
        '[2026-11-29T10:00:00Z] canonical',
        '[2026-11-29 10:00:01] space, no zone',
        '2026-11-29T10:00:02Z - bare with a dash',
        '[20261129T100003Z] as date -u +%Y%m%dT%H%M%SZ prints it',
        '[2026-11-29T12:00:04+02:00] with an offset',
        '2026-11-29T10:00:05.250Z',
        'S2 done (no time)',
        '[2026-13-40T10:00:00Z] not a date',
      ].join('\n'),
    );
    expect(lines.map((l) => [l.wellFormed, l.at ?? null, l.message])).toEqual([
      [true, '2026-11-29T10:00:00Z', 'canonical'],
      [true, '2026-11-29T10:00:01Z', 'space, no zone'],
      [true, '2026-11-29T10:00:02Z', 'bare with a dash'],
      [true, '2026-11-29T10:00:03Z', 'as date -u +%Y%m%dT%H%M%SZ prints it'],
      [true, '2026-11-29T10:00:04Z', 'with an offset'],
      [true, '2026-11-29T10:00:05.250Z', ''],
      [false, null, 'S2 done (no time)'],
      [false, null, '[2026-13-40T10:00:00Z] not a date'],
    ]);
  });
});

describe('finalized-before-push', () => {
  it('should judge only a run that records an unconfirmed push', () => {
    const { t, root } = run();
    const state = join(root, 'state.env');
    const checklist = join(root, 'checklist.state.env');
    setKey(checklist, 'CB_S3_PUSH_ATTEMPTED', undefined);
    setKey(checklist, 'CB_S3_REMOTE_CONFIRMED', undefined);
    setKey(state, 'REPORT_APPENDED', 'REPORT_APPENDED="1"');
    const codes = () => findingsOf(root).filter((f) => f.includes('finalized-before-push'));
    expect(codes()).toEqual([]);
    setKey(state, 'PUSH_ATTEMPTED', 'PUSH_ATTEMPTED="1"');
    expect(codes()).toEqual([]);
    setKey(state, 'PUSH_CONFIRMED', 'PUSH_CONFIRMED="0"');
    expect(codes()).toEqual([
      'error resumable/finalized-before-push REPORT_APPENDED=1 before the push is confirmed',
    ]);
    setKey(state, 'PUSH_CONFIRMED', undefined);
    setKey(state, 'PUSH_ATTEMPTED', 'PUSH_ATTEMPTED="0"');
    expect(codes()).toHaveLength(1);
    t.cleanup();
  });
});
