import { readFileSync } from 'node:fs';

/** What the ulpi run should be after the commands so far: the run status and each unit's status, in key order. */
export interface UlpiModel {
  status: 'running' | 'done' | 'needs_attention' | 'aborted';
  units: Map<string, string>;
}

/** The system under test: one status file on disk. */
export interface UlpiReal {
  readonly file: string;
}

export const readDoc = (real: UlpiReal) => JSON.parse(readFileSync(real.file, 'utf8'));
export const readBytes = (real: UlpiReal) => readFileSync(real.file);

/** The refusal a verb must end with: exit code 2 (a CkptError), the file left byte-identical. */
export function expectRefused(real: UlpiReal, run: () => void): void {
  const before = readBytes(real);
  let error: unknown;
  try {
    run();
  } catch (e) {
    error = e;
  }
  if (!error || (error as { exitCode?: number }).exitCode !== 2)
    throw new Error(`expected a refusal (exit 2), got ${String(error)}`);
  if (!readBytes(real).equals(before)) throw new Error('a refused verb changed the file');
}
