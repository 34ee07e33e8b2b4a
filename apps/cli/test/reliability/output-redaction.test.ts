import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createViewer, type Viewer } from '@ckpt/viewer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../run-cli.js';
import { ckpt, project, sampleUlpi } from './output-cli.js';

// Secret-looking values never leave ckpt: every output that shows file contents redacts them (the CLI's text and
// JSON, the dialects' status commands, `ulpi get`, validate's findings, the viewer's API and raw view) unless
// asked with --show-secrets / ?reveal=1, and every writer refuses them without echoing them.

// Built at run time, so the repository holds no secret-looking literal.
const GH = `ghp_${'Z9'.repeat(15)}`;
const SK = `sk-${'q7'.repeat(12)}`;
const PW = `hunter${'2'.repeat(8)}`;
const SECRETS = [GH, SK, PW];
const RUN = 'lint-sweep-20260812T140210Z';
const ULPI = `.ulpi/runs/${RUN}.json`;

let p: ReturnType<typeof project>;
let teamRun = '';
beforeAll(() => {
  p = project({
    [ULPI]: sampleUlpi((doc) => {
      doc.units['packages/api'].note = `deployed with ${GH}`;
      doc.openItems[0].detail = `db password=${PW} in the runbook`;
      doc.units['packages/shared'].status = SK;
    }),
  });
  cpSync(join(repoRoot, 'test-fixtures/sample-project/.agent-context'), join(p.dir, '.agent-context'), {
    recursive: true,
  });
  const state = join(p.dir, '.agent-context/runs/fix-login-timeout-bug/state.json');
  writeFileSync(state, readFileSync(state, 'utf8').replace('npm test -- auth', `npm test -- auth ${GH}`));
  teamRun = ckpt(['team', 'start-run', '--profile', 'new', '--stage', 'research'], p.dir).stdout.trim();
  const task = ['--run', teamRun, '--task', 'scan-1'];
  expect(ckpt(['team', 'start-task', ...task, '--stage', 'research', '--agent', 'scout'], p.dir).code).toBe(
    0,
  );
  const ev = ckpt(['team', 'finish-task', ...task, '--status', 'completed', '--evidence', 'EVIDENCE'], p.dir);
  const file = join(p.dir, ev.stdout.trim());
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace('EVIDENCE', `curl with Authorization: Bearer ${SK}`),
  );
});
afterAll(() => p.cleanup());

const expectNoSecret = (what: string, text: string) => {
  for (const s of SECRETS) expect(text.includes(s), `${what} shows a secret`).toBe(false);
};

describe('outputs that show file contents', () => {
  const views = [
    ['status'],
    ['status', '--json'],
    ['list', '--json'],
    ['status', '--run', RUN],
    ['status', '--run', RUN, '--json'],
    ['resume', '--run', RUN],
    ['resume', '--run', RUN, '--json'],
    ['status', '--run', `team/${'TEAM'}`],
    ['ulpi', 'get', ULPI],
    ['ulpi', 'get', ULPI, '--summary'],
    ['team', 'status'],
    ['team', 'status', '--json'],
    ['agent-context', 'status'],
    ['agent-context', 'status', '--json'],
    ['validate', '.'],
    ['validate', '--reporter', 'json', '.'],
    ['validate', '--reporter', 'github', '.'],
    ['validate', '--reporter', 'junit', '.'],
    ['validate', '--reporter', 'sarif', '.'],
  ];
  it('should redact every secret-looking value, text and JSON', () => {
    for (const args of views) {
      const words = args.map((a) => a.replace('TEAM', teamRun));
      const r = ckpt(words, p.dir);
      expect(r.code, `${words.join(' ')}: ${r.stderr}`).toBeLessThan(2);
      expectNoSecret(words.join(' '), r.stdout + r.stderr);
    }
    expect(ckpt(['status', '--run', RUN], p.dir).stdout).toContain('[REDACTED:github-token]');
  });

  it("should mask the migrate preview (the file's contents) unless --show-secrets", () => {
    const v1 = '.ulpi/runs/migrate-auth-20260706T081500Z.json';
    const doc = JSON.parse(
      readFileSync(join(repoRoot, 'test-fixtures/ulpi/v1-minimal-hand-written', v1), 'utf8'),
    );
    doc.units['src/auth/session.ts'].note = `rotated ${GH}`;
    writeFileSync(join(p.dir, v1), `${JSON.stringify(doc, null, 2)}\n`);
    const preview = ckpt(['migrate', v1], p.dir);
    expect(preview.code, preview.stderr).toBe(0);
    expectNoSecret('migrate', preview.stdout + preview.stderr);
    expect(JSON.parse(preview.stdout).units['src/auth/session.ts'].note).toBe(
      'rotated [REDACTED:github-token]',
    );
    expect(ckpt(['migrate', v1, '--show-secrets'], p.dir).stdout).toContain(GH);
  });

  it('should show the values as written with --show-secrets', () => {
    expect(ckpt(['status', '--run', RUN, '--show-secrets'], p.dir).stdout).toContain(GH);
    expect(ckpt(['resume', '--run', RUN, '--json', '--show-secrets'], p.dir).code).toBe(0);
    expect(ckpt(['ulpi', 'get', ULPI, '--show-secrets'], p.dir).stdout).toContain(PW);
    expect(ckpt(['team', 'status', '--show-secrets'], p.dir).stdout).toContain(SK);
    expect(ckpt(['agent-context', 'status', '--show-secrets'], p.dir).stdout).toContain(GH);
  });
});

describe('the viewer', () => {
  let viewer: Viewer;
  beforeAll(async () => {
    viewer = await createViewer({ dir: p.dir, watch: false });
  });
  afterAll(() => viewer.close());
  const get = (url: string) => viewer.app.inject({ method: 'GET', url });

  it('should redact the runs document and a run document', async () => {
    for (const url of ['/api/runs', `/api/runs/ulpi/${RUN}`, `/api/runs/team/${teamRun}`, '/api/summaries']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expectNoSecret(url, res.body);
    }
  });

  it('should mask the raw file unless ?reveal=1', async () => {
    const masked = await get(`/api/raw?path=${encodeURIComponent(ULPI)}`);
    expect(masked.statusCode).toBe(200);
    expect(masked.headers['x-ckpt-secrets']).toBe('redacted');
    expectNoSecret('/api/raw', masked.body);
    expect(masked.body).toContain('password=[REDACTED:assignment]');
    const shown = await get(`/api/raw?path=${encodeURIComponent(ULPI)}&reveal=1`);
    expect(shown.headers['x-ckpt-secrets']).toBe('revealed');
    expect(shown.body).toBe(readFileSync(join(p.dir, ULPI), 'utf8'));
  });
});

describe('writers', () => {
  const refused = (args: string[], field: RegExp) => {
    const before = readFileSync(join(p.dir, ULPI), 'utf8');
    const r = ckpt(args, p.dir);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
    expect(r.stderr).toMatch(field);
    expectNoSecret(args[1]!, r.stdout + r.stderr);
    expect(readFileSync(join(p.dir, ULPI), 'utf8')).toBe(before);
  };

  it('should refuse secret-looking free text in every ulpi field, never echoing it', () => {
    refused(['ulpi', 'unit', ULPI, 'packages/shared', 'pending', '--note', `use ${GH}`], /--note/);
    refused(['ulpi', 'validation', ULPI, 'green', '--note', `password=${PW}`], /--note/);
    refused(['ulpi', 'finalize', ULPI, 'aborted', '--result', `key ${SK}`], /--result/);
    refused(['ulpi', 'item', ULPI, '--json', JSON.stringify({ kind: 'x', detail: `token=${PW}` })], /detail/);
  });

  it('should refuse a secret-looking team session, input path or evidence, never echoing it', () => {
    const base = ['--run', teamRun, '--stage', 'research', '--agent', 'scout'];
    for (const extra of [
      ['--task', 'scan-2', '--session', GH],
      ['--task', 'scan-3', '--input', `docs/${SK}.md`],
    ]) {
      const r = ckpt(['team', 'start-task', ...base, ...extra], p.dir);
      expect(r.code, r.stderr).toBe(2);
      expectNoSecret('team start-task', r.stdout + r.stderr);
    }
  });

  it('should refuse a secret-looking resumable log line, never echoing it', () => {
    const sha = 'a'.repeat(40);
    const init = ckpt(
      [
        'resumable',
        'init',
        '--config-dir',
        'oc',
        '--task',
        'fix',
        '--repo-root',
        '.',
        '--branch',
        'main',
      ].concat(['--base-pin', sha, '--expected-old-sha', sha, '--plan', 'plan.md']),
      p.dir,
    );
    expect(init.code, init.stderr).toBe(0);
    const root = init.stdout.trim();
    const r = ckpt(['resumable', 'log', '--run', root, `pushed with ${GH}`], p.dir);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/log line/);
    expectNoSecret('resumable log', r.stdout + r.stderr + readFileSync(join(root, 'run.log'), 'utf8'));
  });
});

describe('the run list', () => {
  // A run status short enough to show whole in the list's status column.
  const STATUS = `pwd=${'k3'.repeat(5)}`;
  it('should redact what the one-line summaries show, text and JSON, unless --show-secrets', () => {
    const q = project({
      '.ulpi/runs/secret-status-20260812T140210Z.json': sampleUlpi((doc) => {
        doc.id = 'secret-status-20260812T140210Z';
        doc.status = STATUS;
      }),
    });
    try {
      for (const args of [['status'], ['list'], ['list', '--json'], ['status', '--json']]) {
        const shown = ckpt(args, q.dir).stdout;
        expect(shown, args.join(' ')).not.toContain(STATUS.slice(4));
        expect(shown, args.join(' ')).toContain('pwd=[REDACTED');
        expect(ckpt([...args, '--show-secrets'], q.dir).stdout, args.join(' ')).toContain(STATUS);
      }
    } finally {
      q.cleanup();
    }
  });
});
