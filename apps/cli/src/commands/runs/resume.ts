import { forTerminal, needsPerson, resumeDocument } from '@ckpt/core';
import { type ColorMode, colorsFor } from '../../output/color.js';
import { printJson, printText } from '../../output/print.js';
import { formatResume } from './format-resume.js';
import { loadRuns, pickRun } from './load.js';

export interface ResumeFlags {
  readonly run: string;
  readonly dialect?: string;
  readonly json?: boolean;
  readonly exitStatus?: boolean;
  readonly color?: string;
  readonly showSecrets?: boolean;
}

/** `ckpt resume [dir] --run id`: the run's resume plan. Reads only; it never starts anything. */
export function runResume(dir: string | undefined, flags: ResumeFlags): number {
  const run = pickRun(loadRuns(dir, flags.dialect, flags.json, flags.showSecrets), flags.run, flags.dialect);
  if (flags.json) printJson(resumeDocument(run));
  else printText(formatResume(forTerminal(run), colorsFor((flags.color ?? 'auto') as ColorMode)));
  return flags.exitStatus && needsPerson(run.attention) ? 1 : 0;
}
