import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type TeamStatus, teamStatus } from './status.js';

const dir = resolve(import.meta.dirname, '../../../../../test-fixtures/team');

/** The compact form of a status that expected.json records: the run shown, each task's status, the resume plan. */
export function compactTeamStatus(s: TeamStatus) {
  return {
    status: {
      run: s.run?.id ?? null,
      current: s.current.state,
      tasks: Object.fromEntries((s.run?.units ?? []).map((u) => [u.id, u.status])),
      approvals: (s.run?.approvals ?? []).map((a) => `${a.stage} ${a.artifact}: ${a.state}`),
    },
    resume: {
      completed: s.resume?.completed.map((t) => t.task) ?? [],
      running: s.resume?.running.map((t) => t.task) ?? [],
      retry: s.resume?.retry.map((t) => t.task) ?? [],
      conflicts: s.resume?.conflicts.map((t) => t.task) ?? [],
      awaitingApproval: s.resume?.awaitingApproval.map((g) => g.stage) ?? [],
    },
  };
}

describe('team fixtures: status and resume plan', () => {
  const cases = readdirSync(dir)
    .filter((c) => existsSync(join(dir, c, 'expected.json')))
    .sort();
  for (const c of cases) {
    const expected = JSON.parse(readFileSync(join(dir, c, 'expected.json'), 'utf8'));
    it.skipIf(!expected.resume)(`${c} should show the status and resume plan expected.json says`, () => {
      const got = compactTeamStatus(teamStatus(join(dir, c)));
      expect(got).toEqual({ status: expected.status, resume: expected.resume });
    });
  }
});
