import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { ChangeEvent, ProjectState } from '../src/project.js';

export const ULPI_RUN = '.ulpi/runs/add-oauth-20261129T071300Z.json';
export const ULPI_KEY = 'ulpi/add-oauth-20261129T071300Z';
export const RELEASE = '.opencode/reports/release-v2-4-0-20261128T101500Z';

/**
 * Waits until `check` holds, polling; fails with `what` after `ms` (a bound on a hang, not a speed assertion),
 * saying what `explain` tells of the state then (where a change got stuck).
 */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 30_000,
  explain?: () => unknown,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end)
      throw new Error(`timed out waiting for ${what}${explain ? `: ${JSON.stringify(explain())}` : ''}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every change the project announces, in order. */
export function recordChanges(project: ProjectState): ChangeEvent[] {
  const seen: ChangeEvent[] = [];
  project.onChange((e) => {
    if (e.type === 'change') seen.push(e.change);
  });
  return seen;
}

/** Replaces a file the way atomic writers do: a temp file beside it, renamed over it (a new inode). */
export function replaceByRename(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** The ulpi status document with a new task title. */
export function ulpiWithTitle(path: string, title: string): string {
  const doc = JSON.parse(readFileSync(path, 'utf8'));
  doc.task = title;
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** A resumable run's state.env with a new task name. */
export function envWithTitle(path: string, title: string): string {
  return readFileSync(path, 'utf8').replace(/TASK_NAME=".*"/, `TASK_NAME="${title}"`);
}
