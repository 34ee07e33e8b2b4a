import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { tmpTree } from '@ckpt/test-utils';
import { describe, expect, it } from 'vitest';
import { readUlpiDoc } from './store.js';
import { initUlpiRun } from './write.js';

const dist = resolve(import.meta.dirname, '../../../dist/index.js');

function worker(file: string, units: string[]): Promise<number> {
  const script = `
    const { setUlpiUnit, addUlpiItems } = await import(${JSON.stringify(dist)});
    for (const u of ${JSON.stringify(units)}) {
      setUlpiUnit(${JSON.stringify(file)}, u, 'in_progress');
      addUlpiItems(${JSON.stringify(file)}, { unit: u, kind: 'note' });
      setUlpiUnit(${JSON.stringify(file)}, u, 'done', { note: 'by ' + process.pid });
    }`;
  return new Promise((res) => {
    const p = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    p.on('exit', (code) => res(code ?? 1));
  });
}

describe('ulpi writers under the lock', () => {
  it.skipIf(!existsSync(dist))(
    'should lose no update when several real processes update different units of one run',
    async () => {
      for (const eventLog of [false, true]) {
        const t = tmpTree();
        const f = t.path('.ulpi/runs/race.json');
        const groups = [0, 1, 2, 3].map((w) => [0, 1, 2].map((i) => `w${w}-u${i}`));
        initUlpiRun(f, { task: 'race', units: groups.flat(), eventLog });
        const codes = await Promise.all(groups.map((g) => worker(f, g)));
        expect(codes).toEqual([0, 0, 0, 0]);
        const doc = readUlpiDoc(f);
        const units = doc.units as Record<string, { status: string }>;
        expect(Object.values(units).every((u) => u.status === 'done')).toBe(true);
        expect((doc.openItems as unknown[]).length).toBe(12);
        expect(existsSync(`${f}.lock`)).toBe(false);
        t.cleanup();
      }
    },
    60_000,
  );
});
