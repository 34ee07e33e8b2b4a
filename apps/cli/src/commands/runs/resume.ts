import { needsPerson, resumeDocument } from '@ckpt/core';
import { type ColorMode, colorsFor } from '../../output/color.js';
import { formatResume } from './format-resume.js';
import { loadRuns, pickRun } from './load.js';

export interface ResumeFlags {
  readonly run: string;
  readonly dialect?: string;
  readonly json?: boolean;
  readonly exitStatus?: boolean;
  readonly color?: string;
}

/** `ckpt resume [dir] --run id`: the run's resume plan. Reads only; it never starts anything. */
export function runResume(dir: string | undefined, flags: ResumeFlags): number {
  const run = pickRun(loadRuns(dir, flags.dialect, flags.json), flags.run, flags.dialect);
  process.stdout.write(
    flags.json
      ? `${JSON.stringify(resumeDocument(run), null, 2)}\n`
      : formatResume(run, colorsFor((flags.color ?? 'auto') as ColorMode)),
  );
  return flags.exitStatus && needsPerson(run.attention) ? 1 : 0;
}
