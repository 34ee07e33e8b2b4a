import { tmpTree } from '@ckpt/test-utils';
import { describe, expect, it } from 'vitest';
import { validatePaths } from '../../check/validate-files.js';
import { teamCodes } from './codes.js';

const RUN = '20261028T131016577943Z-20fe61';
const OLD = '20261027T091502118406Z-7c41d2';
const R = `.team/runs/${RUN}`;

function event(over: Record<string, unknown>): string {
  return JSON.stringify(
    {
      event: 'task_started',
      at: '2026-10-28T13:11:00Z',
      run_id: RUN,
      task_id: 'build-fe',
      stage: 'build',
      agent: 'fe',
      attempt: 1,
      status: 'running',
      session: null,
      parent_session: null,
      inputs: [],
      artifacts: [],
      evidence: '',
      next: '',
      ...over,
    },
    null,
    2,
  );
}
const run = (id: string) =>
  JSON.stringify({
    run_id: id,
    created_at: '2026-10-28T13:10:16Z',
    profile: 'new',
    stage: 'build',
    status: 'running',
    session: null,
    parent_session: null,
  });
const ev = (time: string, e: string, task: string, a: number, tok: string) =>
  `${R}/events/2026102${time}Z-${e}-${task}-a${a}-${tok}.json`;

/** A tree that breaks every team rule once. */
function brokenTree(current = `${OLD}\n`) {
  return tmpTree({
    '.team/07-build.md': 'now\n',
    '.team/runs/current': current,
    [`.team/runs/${OLD}/run.json`]: run(OLD),
    '.team/runs/20261029T000000000000Z-aaaaaa/.keep': '',
    // events but no run.json (deleted): team/missing-run-json
    '.team/runs/20261026T000000000000Z-cccccc/events/20261026T000100000000Z-task_started-x-a1-cccc01.json':
      event({
        run_id: '20261026T000000000000Z-cccccc',
        task_id: 'x',
        at: '2026-10-26T00:01:00Z',
      }),
    [`${R}/run.json`]: run('20261028T131016577943Z-ffffff'),
    [`${R}/events/.x.json.ckpt-tmp-1-abcd`]: '{"event":',
    // conflict
    [ev('8T131100000000', 'task_started', 'build-fe', 1, 'aaaaa1')]: event({}),
    [ev('8T132000000000', 'task_finished', 'build-fe', 1, 'aaaaa2')]: event({
      event: 'task_finished',
      at: '2026-10-28T13:20:00Z',
      status: 'completed',
    }),
    [ev('8T132001000000', 'task_finished', 'build-fe', 1, 'aaaaa3')]: event({
      event: 'task_finished',
      at: '2026-10-28T13:20:01Z',
      status: 'failed',
    }),
    // started after terminal, duplicate start, invalid retry (attempt 2 after completed), gap (attempt 4)
    [ev('8T120000000000', 'task_started', 'be', 1, 'bbbbb1')]: event({
      task_id: 'be',
      at: '2026-10-28T12:00:00Z',
    }),
    [ev('8T120500000000', 'task_finished', 'be', 1, 'bbbbb2')]: event({
      task_id: 'be',
      event: 'task_finished',
      at: '2026-10-28T12:05:00Z',
      status: 'completed',
    }),
    [ev('8T121000000000', 'task_started', 'be', 1, 'bbbbb3')]: event({
      task_id: 'be',
      at: '2026-10-28T12:10:00Z',
    }),
    [ev('8T121500000000', 'task_started', 'be', 2, 'bbbbb4')]: event({
      task_id: 'be',
      attempt: 2,
      at: '2026-10-28T12:15:00Z',
      retry_of: 1,
      reason: 'x',
    }),
    [ev('8T122000000000', 'task_started', 'be', 4, 'bbbbb5')]: event({
      task_id: 'be',
      attempt: 4,
      at: '2026-10-28T12:20:00Z',
    }),
    // missing start
    [ev('8T130000000000', 'task_finished', 'docs', 1, 'ccccc1')]: event({
      task_id: 'docs',
      event: 'task_finished',
      status: 'completed',
    }),
    // per-document rules
    [ev('8T130100000000', 'task_started', 'x1', 1, 'ddddd1')]: event({
      task_id: 'x1',
      status: 'completed',
      inputs: ['/abs'],
    }),
    [ev('8T130200000000', 'task_finished', 'x2', 1, 'ddddd2')]: event({
      task_id: 'x2',
      event: 'task_finished',
      status: 'running',
      evidence: 'x'.repeat(1001),
    }),
    [ev('8T130300000000', 'task_started', 'x3', 0, 'ddddd3')]: event({
      task_id: 'x3',
      attempt: 0,
      next: 'password=hunter22',
    }),
    [ev('8T130400000000', 'task_started', 'x4', 1, 'ddddd4')]: event({ task_id: 'other' }),
    [`${R}/events/started-x5.json`]: event({ task_id: 'x5' }),
    [`${R}/approvals/20261028T133100825467Z-build-157165.json`]: JSON.stringify({
      stage: 'build',
      artifact: '.team/07-build.md',
      sha256: 'a'.repeat(64),
      by: 'samet',
      approved_at: '2026-10-28T13:31:00Z',
    }),
  });
}

describe('team rules', () => {
  it('should emit every documented code, and only documented codes', () => {
    const codes = new Set<string>();
    for (const current of [`${OLD}\n`, 'nope\n']) {
      const t = brokenTree(current);
      try {
        const report = validatePaths(['.'], { cwd: t.dir });
        for (const f of report.files.flatMap((x) => x.findings))
          if (f.code.startsWith('team/')) codes.add(f.code);
      } finally {
        t.cleanup();
      }
    }
    expect([...codes].sort()).toEqual(Object.keys(teamCodes).sort());
  });

  it('should put findings about current on the file .team/runs/current', () => {
    const t = brokenTree('20261030T000000000000Z-bbbbbb\n');
    try {
      const report = validatePaths(['.'], { cwd: t.dir });
      const cur = report.files.find((f) => f.file === '.team/runs/current');
      expect(cur?.findings.map((f) => f.code)).toEqual(['team/dangling-current']);
    } finally {
      t.cleanup();
    }
  });

  it('should say which of event, task, attempt and run the body and the file name disagree on', () => {
    const name = (e: string, task: string, a: number, tok: string) =>
      ev('8T131100000000', e, task, a, tok).replace(`${R}/events/`, '');
    const t = tmpTree({
      [`${R}/run.json`]: run(RUN),
      [`${R}/events/${name('task_started', 'ok', 1, 'aaaa01')}`]: event({ task_id: 'ok' }),
      [`${R}/events/${name('task_started', 'ev', 1, 'aaaa02')}`]: event({
        task_id: 'ev',
        event: 'task_finished',
        status: 'completed',
      }),
      [`${R}/events/${name('task_started', 'tk', 1, 'aaaa03')}`]: event({ task_id: 'tk2' }),
      [`${R}/events/${name('task_started', 'at', 2, 'aaaa04')}`]: event({ task_id: 'at' }),
      [`${R}/events/${name('task_started', 'rn', 1, 'aaaa05')}`]: event({ task_id: 'rn', run_id: OLD }),
      [`${R}/events/${name('task_started', 'all', 3, 'aaaa06')}`]: event({
        task_id: 'all2',
        event: 'task_finished',
        status: 'completed',
        run_id: OLD,
      }),
    });
    try {
      const report = validatePaths(['.'], { cwd: t.dir });
      const said = Object.fromEntries(
        report.files
          .filter((f) => f.file.includes('/events/'))
          .map((f) => [
            f.file.split('-task_')[1]!.split('-')[1]!,
            f.findings.filter((x) => x.code === 'team/name-body-mismatch').map((x) => x.message),
          ]),
      );
      const d = 'the body disagrees with the file name:';
      expect(said).toEqual({
        ok: [],
        ev: [`${d} event "task_finished" (name: "task_started")`],
        tk: [`${d} task_id "tk2" (name: "tk")`],
        at: [`${d} attempt 1 (name: a2)`],
        rn: [`${d} run_id "${OLD}" (directory: "${RUN}")`],
        all: [
          `${d} event "task_finished" (name: "task_started"), task_id "all2" (name: "all"), attempt 1 (name: a3), run_id "${OLD}" (directory: "${RUN}")`,
        ],
      });
    } finally {
      t.cleanup();
    }
  });

  it('should document every code with a severity, a title and an explanation', () => {
    for (const [code, info] of Object.entries(teamCodes)) {
      expect(code).toMatch(/^team\/[a-z0-9-]+$/);
      expect(['error', 'warning', 'info']).toContain(info.severity);
      expect(info.title.length).toBeGreaterThan(10);
      expect(info.explanation.length).toBeGreaterThan(20);
    }
  });
});
