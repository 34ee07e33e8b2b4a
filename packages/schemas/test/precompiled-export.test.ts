import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createValidator } from '../src/index.js';

// README "Schemas for other tools": the precompiled validators are importable through the package's exports, and
// they check values as JSON.parse makes them, where createValidator() counts own members only.
const require = createRequire(import.meta.url);

type Validator = ((data: unknown) => boolean) & { errors?: unknown };

// A task event as the team helper writes it.
const event = JSON.parse(
  readFileSync(
    fileURLToPath(
      new URL(
        '../../../test-fixtures/team/approval-unknown-field/.team/runs/20261028T131016577943Z-20fe61/events/20261028T132000818772Z-task_finished-build-fe-20261028T1300Z-a1-3b6cba.json',
        import.meta.url,
      ),
    ),
    'utf8',
  ),
) as Record<string, unknown>;

describe('the precompiled validators as the package exports them', () => {
  const precompiled = (require('@ckpt/schemas/validators/team/task-event') as { default: Validator }).default;
  const compiled = createValidator('team/task-event');

  it("should give the runtime-compiled validator's answer on a parsed document", () => {
    const doc = JSON.parse(JSON.stringify(event));
    expect(compiled(doc)).toBe(true);
    expect(precompiled(doc)).toBe(true);
    const broken = JSON.parse(JSON.stringify({ ...event, attempt: 'one' }));
    expect(precompiled(broken)).toBe(false);
    expect(compiled(broken)).toBe(false);
  });

  it('should count a member inherited from another prototype as present, where createValidator does not', () => {
    const { event: name, ...rest } = event;
    const inherited = Object.assign(Object.create({ event: name }), rest);
    expect(precompiled(inherited)).toBe(true);
    expect(compiled(inherited)).toBe(false);
  });
});
