import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const pkg = resolve(import.meta.dirname, '..');
const codegen = join(pkg, 'scripts/codegen.mjs');

describe('codegen --check', () => {
  it('should pass on the committed output', () => {
    const r = spawnSync(process.execPath, [codegen, '--check'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('should fail, naming the fix command, when a schema changes without regenerating', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ckpt-drift-'));
    try {
      cpSync(resolve(pkg, '../../schemas'), join(dir, 'schemas'), { recursive: true });
      cpSync(join(pkg, 'src/generated'), join(dir, 'generated'), { recursive: true });
      const file = join(dir, 'schemas/team/run.schema.json');
      const schema = JSON.parse(readFileSync(file, 'utf8'));
      schema.properties.new_field = { type: 'string', description: 'A field added without regenerating.' };
      writeFileSync(file, JSON.stringify(schema, null, 2));
      const env = {
        ...process.env,
        CKPT_SCHEMAS_DIR: join(dir, 'schemas'),
        CKPT_GENERATED_DIR: join(dir, 'generated'),
      };
      const r = spawnSync(process.execPath, [codegen, '--check'], { encoding: 'utf8', env });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('out of date: src/generated/types/team/run.ts');
      expect(r.stderr).toContain('pnpm codegen');
      execFileSync(process.execPath, [codegen], { env });
      expect(spawnSync(process.execPath, [codegen, '--check'], { env }).status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
