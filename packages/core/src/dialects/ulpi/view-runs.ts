import { statSync } from 'node:fs';
import { join } from 'node:path';
import { type Finding, findingAt } from '../../findings/finding.js';
import type { RunFacts } from '../../view/run-view.js';
import type { TreeContext } from '../dialect.js';
import { checkUlpiTree } from './event-log-rules.js';
import { loadUlpiRunFiles, ulpiTempFiles } from './load.js';
import { ulpiRunView } from './view.js';

const STALE_TEMP_MS = 10 * 60_000;

function tempFindings(dir: string, ctx: TreeContext, now: number): Finding[] {
  const temps = ulpiTempFiles(dir);
  // A temp file's age is measured now: the runs must be derived again at each read, not kept.
  if (temps.length > 0) ctx.volatile?.();
  return temps.flatMap((name) => {
    const p = join(dir, name);
    let age = 0;
    try {
      age = now - statSync(p).mtimeMs;
    } catch {
      return [];
    }
    if (age < STALE_TEMP_MS) return [];
    return [
      findingAt(
        ctx.display(p),
        { line: 1, column: 1 },
        {
          code: 'ulpi/stale-temp-file',
          severity: 'info',
          message: `temp file of an interrupted write, ${Math.round(age / 60_000)} min old: readers ignore it; it can be deleted`,
        },
      ),
    ];
  });
}

/** Every run of a `.ulpi/runs` directory as RunViews, newest first; unreadable files included. */
export function ulpiRunViews(dir: string, ctx: TreeContext, now = Date.now()): RunFacts[] {
  const runs = loadUlpiRunFiles(dir, ctx);
  const tree = checkUlpiTree(dir, ctx);
  const temps = tempFindings(dir, ctx, now);
  return runs.map((r, i) =>
    ulpiRunView(r, ctx, [...tree.filter((f) => f.file === r.doc.file), ...(i === 0 ? temps : [])]),
  );
}
