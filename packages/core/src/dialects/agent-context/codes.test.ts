import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validatePaths } from '../../check/validate-files.js';
import { loadProject } from '../../view/load-project.js';
import { agentContextCodes } from './codes.js';

const fixtures = resolve(import.meta.dirname, '../../../../../test-fixtures');

function emittedCodes(): Set<string> {
  const out = new Set<string>();
  const root = join(fixtures, 'agent-context');
  for (const name of readdirSync(root)) {
    const dir = join(root, name);
    for (const f of validatePaths(['.'], { cwd: dir }).files.flatMap((x) => x.findings)) out.add(f.code);
    for (const r of loadProject(dir, { dialects: ['agent-context'] }))
      for (const f of r.findings) out.add(f.code);
  }
  return out;
}

describe('agentContextCodes', () => {
  const codes = emittedCodes();

  it('should document every code the rules emit on the fixtures', () => {
    for (const code of codes)
      if (code.startsWith('agent-context/')) expect(agentContextCodes).toHaveProperty([code]);
  });

  it('should have a severity, title and explanation for every code', () => {
    for (const [code, info] of Object.entries(agentContextCodes)) {
      expect(code).toMatch(/^agent-context\/[a-z-]+$/);
      expect(info.title.length).toBeGreaterThan(10);
      expect(info.explanation.length).toBeGreaterThan(40);
    }
  });

  it('should have a fixture case for every code but the loader-only temp-file note', () => {
    const missing = Object.keys(agentContextCodes).filter(
      (c) => !codes.has(c) && c !== 'agent-context/stale-temp-file',
    );
    expect(missing).toEqual([]);
  });
});
